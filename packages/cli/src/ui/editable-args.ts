import { basename } from 'node:path';
import type { ConfirmationDetails } from '@kodo/core/engine';

/** What "edit before running" opens in the editor, and how the edited text goes back. */
export interface EditableArgs {
  /** Text for the editor. */
  text: string;
  /** Temp file name (its extension picks the editor's syntax mode). */
  fileName: string;
  /** The call's arguments with the edited text put back, or an error for bad JSON. */
  apply(edited: string): { ok: true; args: Record<string, unknown> } | { ok: false; message: string };
}

/**
 * Picks the argument a person would want to change: the command of a shell call, the new content
 * of a file write, the replacement text of an edit, the text of a patch; for anything else the
 * arguments as JSON.
 */
export function editableArgs(args: Record<string, unknown>, details: ConfirmationDetails): EditableArgs {
  const field = (key: string, fileName: string): EditableArgs => ({
    text: String(args[key] ?? ''),
    fileName,
    apply: (edited) => ({ ok: true, args: { ...args, [key]: edited } }),
  });
  if (details.kind === 'exec' && typeof args.command === 'string') {
    return field('command', 'command.sh');
  }
  // A patch (apply_patch) is edited as the text it is, not as a JSON string.
  if (details.kind === 'edit' && typeof args.input === 'string') return field('input', 'patch.txt');
  const fileName = typeof args.file_path === 'string' ? basename(args.file_path) : 'proposal.txt';
  if (typeof args.content === 'string') return field('content', fileName);
  if (typeof args.new_string === 'string') return field('new_string', fileName);
  return {
    text: `${JSON.stringify(args, null, 2)}\n`,
    fileName: 'arguments.json',
    apply: (edited) => {
      try {
        const value: unknown = JSON.parse(edited);
        if (value === null || typeof value !== 'object' || Array.isArray(value)) {
          return { ok: false, message: 'The edited arguments must be a JSON object.' };
        }
        return { ok: true, args: value as Record<string, unknown> };
      } catch (error) {
        return { ok: false, message: `The edited arguments are not valid JSON: ${(error as Error).message}` };
      }
    },
  };
}
