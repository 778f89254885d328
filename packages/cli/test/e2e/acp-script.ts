/**
 * `--fake-responses` scripts for the ACP tests, written next to the test's workspace: one model
 * turn per entry, each the parts of one streamed answer (text and function calls).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type ScriptPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export function writeScript(dir: string, name: string, turns: readonly ScriptPart[][]): string {
  const usage = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };
  const lines = turns.map((parts) =>
    JSON.stringify({
      method: 'generateContentStream',
      response: [
        { candidates: [{ content: { role: 'model', parts }, index: 0 }] },
        {
          candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: usage,
        },
      ],
    }),
  );
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export const shellCall = (command: string): ScriptPart => ({
  functionCall: { name: 'run_shell_command', args: { command } },
});
