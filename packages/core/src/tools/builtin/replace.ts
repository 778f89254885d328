import * as z from 'zod';
import { defineTool, errorMessage } from '../define-tool';
import { updatedSnippet } from '../diff';
import { findMatchesAmong, type MatchOutcome, type StringPair } from '../edit/find-matches';
import { EDIT_FIX_TIMEOUT_MS, EditFixer } from '../edit/llm-fixer';
import { findPlaceholders } from '../edit/placeholders';
import { isJsonLikePath, unescapedPairs } from '../edit/unescape';
import { type ChangeReport, type FileChange, fileChangeHooks, isToolError, readTarget } from '../file-change';
import { toLf } from '../file-text';
import { resolveFileParam } from '../results';
import type { Tool, ToolContextFor, ToolError } from '../tool';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['workspace', 'textFiles', 'model', 'llmEditCorrection'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

const parameters = z.object({
  file_path: z
    .string()
    .describe('Path of the file to change, absolute or relative to the working directory.'),
  instruction: z
    .string()
    .describe('What the change does and why, in one or two sentences (helps review and recovery).'),
  old_string: z
    .string()
    .describe(
      'The exact text to replace, including whitespace and indentation, with enough surrounding lines to ' +
        'be unique. Empty to create a new file.',
    ),
  new_string: z.string().describe('The exact text to put in its place.'),
  allow_multiple: z
    .boolean()
    .optional()
    .describe('Replace every occurrence. When false or omitted, old_string must occur exactly once.'),
});

type Params = z.infer<typeof parameters>;

interface EditDeps {
  signal: AbortSignal;
  fixer: EditFixer;
}

const EDIT_REPORT: ChangeReport<PreparedEdit> = {
  success: successText,
  writeFailed: (_change, error) => errorMessage(error),
};

/**
 * The `replace` tool. Each instance keeps the LLM fixer's answers for its own invocations (see
 * `EditFixer`); tests make their own instance to choose the fixer's timeout.
 */
export function createReplaceTool(options: { fixTimeoutMs?: number } = {}): Tool {
  const fixer = new EditFixer(options.fixTimeoutMs ?? EDIT_FIX_TIMEOUT_MS);
  return defineTool({
    name: 'replace',
    uses: USES,
    displayName: 'Edit',
    kind: 'edit',
    description:
      'Replaces text in a file. old_string must match the file exactly (read the file first) and occur ' +
      'exactly once unless allow_multiple is true. With an empty old_string and a file that does not ' +
      'exist yet, creates the file with new_string. The user may be asked to approve the change.',
    parameters,
    validate: validateEdit,
    ...fileChangeHooks(
      (params: Params, ctx: Ctx, signal: AbortSignal) => prepareEdit(params, ctx, { signal, fixer }),
      {
        title: 'Confirm Edit',
        report: EDIT_REPORT,
      },
    ),
  });
}

export const replaceTool = createReplaceTool();

function validateEdit(params: Params, ctx: Ctx): ToolError | undefined {
  const resolved = resolveFileParam(params.file_path, ctx);
  if (!resolved.ok) return resolved.error;
  // A placeholder the model copied from old_string is real file content; a new one would delete code.
  const allowed = new Set(findPlaceholders(params.old_string));
  if (findPlaceholders(params.new_string).some((line) => !allowed.has(line))) {
    return {
      type: 'invalid_tool_params',
      message:
        "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.",
    };
  }
  return undefined;
}

interface PreparedEdit extends FileChange {
  match: MatchOutcome | undefined;
}

/** Reads the file and computes the edit, or the error the model should see. */
async function prepareEdit(params: Params, ctx: Ctx, deps: EditDeps): Promise<PreparedEdit | ToolError> {
  const target = await readTarget(
    params.file_path,
    ctx,
    (abs) => ({ type: 'read_content_failure', message: `Failed to read content of existing file: ${abs}` }),
    { refuseBinary: true },
  );
  if (isToolError(target)) return target;
  const { abs, existing, format } = target;
  const oldString = toLf(params.old_string);
  const newString = toLf(params.new_string);

  if (!existing) {
    if (oldString !== '') return { type: 'file_not_found', message: `File not found: ${abs}` };
    return { abs, isNewFile: true, oldText: '', newText: newString, match: undefined, format };
  }
  if (oldString === '') {
    return { type: 'attempt_to_create_existing_file', message: `File already exists, cannot create: ${abs}` };
  }

  const content = existing.text;
  const allowMultiple = params.allow_multiple ?? false;
  // JSON-like files hold escapes as data: neither unescaping nor the LLM fixer may touch them.
  const dataFile = isJsonLikePath(abs);
  const pairs: StringPair[] = [{ oldString, newString }];
  // The literal strings first; if they are not in the file, over-escaped readings of them (edit/unescape.ts).
  if (!dataFile) pairs.push(...unescapedPairs(oldString, newString));
  let match = findMatchesAmong({ content, allowMultiple, pairs }).outcome;

  if (match.occurrences === 0 && oldString !== newString && ctx.llmEditCorrection && ctx.model && !dataFile) {
    const fix = await deps.fixer.fixFor(
      params,
      ctx.model,
      {
        filePath: abs,
        instruction: params.instruction,
        oldString,
        newString,
        error: noOccurrenceMessage(params.file_path),
        content,
      },
      deps.signal,
    );
    if (fix?.kind === 'no_change') {
      return {
        type: 'edit_no_change_llm_judgement',
        message:
          'A secondary check by an LLM determined that no changes were necessary to fulfill the instruction. ' +
          `Explanation: ${fix.explanation || '(none given)'}. ` +
          `Original error with the parameters given: ${noOccurrenceMessage(params.file_path)}`,
      };
    }
    if (fix?.kind === 'corrected') {
      const pair = { oldString: fix.search, newString: fix.replace };
      const retry = findMatchesAmong({ content, allowMultiple, pairs: [pair] }).outcome;
      // Only a proposal that lands in a place of its own counts; otherwise the original error stands.
      if (retry.newContent !== undefined) match = retry;
    }
  }

  const problem = matchProblem(params, match, { oldString, newString, content });
  if (problem) return problem;
  return { abs, isNewFile: false, oldText: content, newText: match.newContent!, match, format };
}

function noOccurrenceMessage(path: string): string {
  return `Failed to edit, 0 occurrences found for old_string in ${path}. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`;
}

function matchProblem(
  params: Params,
  match: MatchOutcome,
  texts: { oldString: string; newString: string; content: string },
): ToolError | undefined {
  const path = params.file_path;
  if (match.occurrences === 0) {
    return { type: 'edit_no_occurrence_found', message: noOccurrenceMessage(path) };
  }
  if (match.newContent === undefined) {
    return {
      type: 'edit_expected_occurrence_mismatch',
      message: `Failed to edit, Expected 1 occurrence but found ${match.occurrences} for old_string in file: ${path}. If you intended to replace multiple occurrences, set 'allow_multiple' to true.`,
    };
  }
  if (texts.oldString === texts.newString) {
    return {
      type: 'edit_no_change',
      message: `No changes to apply. The old_string and new_string are identical in file: ${path}`,
    };
  }
  if (match.newContent === texts.content) {
    return {
      type: 'edit_no_change',
      message: `No changes to apply. The new content is identical to the current content in file: ${path}`,
    };
  }
  return undefined;
}

function successText(prepared: PreparedEdit): string {
  if (prepared.isNewFile) return `Created new file: ${prepared.abs} with provided content.`;
  const count = prepared.match?.occurrences ?? 1;
  let text =
    `Successfully modified file: ${prepared.abs} (${count} replacements). Here is the updated code:\n` +
    updatedSnippet(prepared.oldText, prepared.newText);
  const ranges = prepared.match?.strategy === 'fuzzy' ? prepared.match.lineRanges : undefined;
  if (ranges && ranges.length > 0) {
    const list = ranges.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(', ');
    text += ` Applied fuzzy match at ${ranges.length === 1 ? 'line' : 'lines'} ${list}.`;
  }
  return text;
}
