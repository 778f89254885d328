// What a tool's result, error and confirmation look like: read by the scheduler, the events
// and every front end, so they sit here, below the tools that produce them.
import type { Part } from './messages';

export type ToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'agent'
  | 'fetch'
  | 'communicate'
  | 'plan'
  | 'switch_mode'
  | 'other';

/** Kinds that never change anything: they may run in parallel and are allowed by default. */
export const READ_ONLY_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search', 'fetch']);

/** Error type names, as strings the model and hooks see (Gemini CLI's `ToolErrorType` values). */
export type ToolErrorType =
  | 'policy_violation'
  | 'invalid_tool_params'
  | 'unknown'
  | 'unhandled_exception'
  | 'tool_not_registered'
  | 'execution_failed'
  | 'file_not_found'
  | 'file_write_failure'
  | 'read_content_failure'
  | 'attempt_to_create_existing_file'
  | 'file_too_large'
  | 'permission_denied'
  | 'no_space_left'
  | 'target_is_directory'
  | 'path_not_in_workspace'
  | 'search_path_not_found'
  | 'search_path_not_a_directory'
  | 'edit_preparation_failure'
  | 'edit_no_occurrence_found'
  | 'edit_expected_occurrence_mismatch'
  | 'edit_no_change'
  | 'glob_execution_error'
  | 'grep_execution_error'
  | 'ls_execution_error'
  | 'path_is_not_a_directory'
  | 'shell_execute_error'
  | 'stop_execution'
  | (string & {});

export interface ToolError {
  type: ToolErrorType;
  message: string;
}

export interface ToolResult {
  /** What the model reads: text, or parts (e.g. inline images). */
  llmContent: string | Part[];
  /** What the person sees: a short summary, output text or a unified diff. */
  returnDisplay: string;
  error?: ToolError;
  /** Lines added/removed, for edit tools (session stats). */
  diffStat?: { linesAdded: number; linesRemoved: number };
  /** For edit tools: the file's text before and after, for front ends that show diffs (ACP). */
  fileDiff?: FileDiff;
}

export interface FileDiff {
  path: string;
  /** null for a file that did not exist. */
  oldText: string | null;
  newText: string;
}

export type ConfirmationDetails =
  | {
      kind: 'edit';
      title: string;
      filePath: string;
      diff: string;
      newContent: string;
      /** The current text; null for a new file; absent when the tool does not say. */
      oldContent?: string | null;
      /**
       * Every file of a change that touches several (apply_patch), for front ends that show a
       * diff per file; `filePath` and the contents above are then the first of them, and `diff`
       * holds every file's diff one after another.
       */
      files?: FileDiff[];
    }
  | { kind: 'exec'; title: string; command: string; rootCommands: string[] }
  /** `serverName`: the call is an MCP tool of that server (the dialog offers the whole server). */
  | { kind: 'info'; title: string; prompt: string; serverName?: string }
  | {
      /** `exit_plan_mode`: the plan to approve, and the modes approval may return to. */
      kind: 'plan';
      title: string;
      planPath: string;
      plan: string;
      /** The first is the one to preselect (the mode the session was in before planning). */
      returnModes: PlanReturnMode[];
    };

/** The modes an approved plan may switch to: never yolo (the person picks one of these). */
export type PlanReturnMode = 'default' | 'auto_edit';
