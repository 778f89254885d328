/**
 * A model response that is valid JSON but the wrong shape ends the prompt with one line naming
 * what was wrong, in the built kodo, from recorded responses and from the Gemini wire: never
 * JavaScript's own words (`n?.some is not a function`) and never a stack.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GeminiMock, runKodo, startGeminiMock } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();
let mock: GeminiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const INTERNALS = /is not a function|Cannot read properties|undefined \(reading|\n\s+at /;

describe('a malformed model response', () => {
  it.each([
    ['candidates is an object', { candidates: { a: 1 } }, 'candidates must be an array (got object)'],
    [
      'parts is a string',
      { candidates: [{ content: { role: 'model', parts: 'hello' } }] },
      'candidates[0].content.parts must be an array (got string)',
    ],
    [
      'a part is null',
      { candidates: [{ content: { parts: [null] } }] },
      'candidates[0].content.parts[0] must be an object (got null)',
    ],
  ])('from recorded responses (%s): one line naming it', async (_name, chunk, said) => {
    const file = join(dirs.root, 'bad.jsonl');
    writeFileSync(file, `${JSON.stringify({ method: 'generateContentStream', response: [chunk] })}\n`);
    for (const format of ['text', 'json']) {
      const run = await runKodo(['-p', 'hi', '-o', format, '--fake-responses', file], {
        cwd: dirs.workspace,
        env: { KODO_HOME: dirs.home },
      });
      expect(run.code).toBe(1);
      const output = run.stderr + run.stdout;
      expect(output).toContain(`Malformed response from the recorded responses: ${said}`);
      expect(output).not.toMatch(INTERNALS);
      if (format === 'text') expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('from the Gemini API: one line naming it', async () => {
    mock = await startGeminiMock({
      script: [
        {
          chunks: [{ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 5 } }] } }] }],
        },
      ],
    });
    const run = await runKodo(['-p', 'hi'], { cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock.url) });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      '[ERROR] Malformed response from the Gemini API: candidates[0].content.parts[0].functionCall.name must be a string (got number).',
    );
  });
});
