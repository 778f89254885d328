/**
 * How kodo's tool calls look to an ACP client: the kind, a title, the files they touch and their
 * content (a diff for edits, text otherwise).
 */
import { isAbsolute, resolve } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { ConfirmationDetails, ToolCallResponseInfo, ToolKind, ToolRegistry } from '@kodo/core/engine';

/** ACP has no kinds for subagents, plans or questions to the person. */
export function acpToolKind(kind: ToolKind | undefined): acp.ToolKind {
  switch (kind) {
    case 'read':
    case 'edit':
    case 'delete':
    case 'move':
    case 'search':
    case 'execute':
    case 'think':
    case 'fetch':
    case 'switch_mode':
      return kind;
    case 'agent':
      return 'think';
    default:
      return 'other';
  }
}

const PATH_ARGS = ['file_path', 'path', 'dir_path', 'absolute_path'] as const;
const SUMMARY_ARGS = ['command', 'pattern', 'query', 'url', 'description', ...PATH_ARGS] as const;

/** The files a call names in its arguments, absolute (ACP paths are absolute). */
export function callLocations(args: Record<string, unknown>, cwd: string): acp.ToolCallLocation[] {
  const locations: acp.ToolCallLocation[] = [];
  for (const name of PATH_ARGS) {
    const value = args[name];
    if (typeof value === 'string' && value !== '') {
      locations.push({ path: isAbsolute(value) ? value : resolve(cwd, value) });
    }
  }
  return locations;
}

/** `Shell: npm test`, `ReadFile: src/a.ts`, or the display name alone. */
export function callTitle(displayName: string, args: Record<string, unknown>): string {
  for (const name of SUMMARY_ARGS) {
    const value = args[name];
    if (typeof value === 'string' && value !== '') {
      const oneLine = value.replace(/\s+/g, ' ');
      return `${displayName}: ${oneLine.length > 120 ? `${oneLine.slice(0, 119)}…` : oneLine}`;
    }
  }
  return displayName;
}

/** The first `tool_call` of a call, before it runs or asks. */
export function toolCallStart(
  call: { callId: string; name: string; args: Record<string, unknown> },
  tools: ToolRegistry,
  cwd: string,
): acp.ToolCall {
  const spec = tools.get(call.name);
  return {
    toolCallId: call.callId,
    title: callTitle(spec?.displayName ?? call.name, call.args),
    kind: acpToolKind(spec?.kind),
    status: 'pending',
    locations: callLocations(call.args, cwd),
    rawInput: call.args,
  };
}

/** What a permission request shows: the diff of an edit, the command, or the question. */
export function confirmationContent(details: ConfirmationDetails): acp.ToolCallContent[] {
  switch (details.kind) {
    case 'edit':
      // A patch of several files (apply_patch) shows a diff per file.
      return (
        details.files ?? [
          { path: details.filePath, oldText: details.oldContent ?? null, newText: details.newContent },
        ]
      ).map((file) => ({ type: 'diff', path: file.path, oldText: file.oldText, newText: file.newText }));
    case 'exec':
      return [{ type: 'content', content: { type: 'text', text: details.command } }];
    case 'info':
      return [{ type: 'content', content: { type: 'text', text: details.prompt } }];
    case 'plan':
      return [{ type: 'content', content: { type: 'text', text: details.plan } }];
  }
}

/** The final `tool_call_update`: status, and the edit's diff or the text the person would see. */
export function toolCallEnd(response: ToolCallResponseInfo): acp.ToolCallUpdate {
  const status: acp.ToolCallStatus = response.status === 'success' ? 'completed' : 'failed';
  const content: acp.ToolCallContent[] = response.fileDiff
    ? [
        {
          type: 'diff',
          path: response.fileDiff.path,
          oldText: response.fileDiff.oldText,
          newText: response.fileDiff.newText,
        },
      ]
    : response.resultDisplay
      ? [{ type: 'content', content: { type: 'text', text: response.resultDisplay } }]
      : [];
  return {
    toolCallId: response.callId,
    status,
    content,
    ...(response.error ? { rawOutput: { error: response.error } } : {}),
  };
}
