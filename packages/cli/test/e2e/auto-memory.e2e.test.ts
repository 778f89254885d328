/**
 * Auto-memory headless: off by default (no proposal call, no inbox), on with `memory.inbox: true`
 * (one proposal call after the last answer, its facts in the project's inbox).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiTextReply, runKodo, startGeminiMock } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();
const user = (content: string) => JSON.stringify({ type: 'user', message: { role: 'user', content } });
const input = `${user('we use pnpm here')}\n${user('run the tests')}\n`;

describe('auto-memory headless', () => {
  it('is off by default: no proposal call, nothing in the inbox', async () => {
    const mock = await startGeminiMock({
      script: [{ chunks: geminiTextReply('Noted.') }, { chunks: geminiTextReply('Done.') }],
    });
    try {
      const run = await runKodo(['--input-format', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        input,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(mock.requests).toHaveLength(2);
      expect(existsSync(join(dirs.home, 'memory-inbox'))).toBe(false);
    } finally {
      await mock.close();
    }
  });

  it('memory.inbox: true proposes the facts to the inbox after the last answer', async () => {
    writeFileSync(join(dirs.home, 'settings.json'), JSON.stringify({ memory: { inbox: true } }));
    const mock = await startGeminiMock({
      script: [
        { chunks: geminiTextReply('Noted.') },
        { chunks: geminiTextReply('Done.') },
        // The proposal is one unary generateContent call.
        {
          response: {
            candidates: [{ content: { role: 'model', parts: [{ text: '["The project uses pnpm."]' }] } }],
          },
        },
      ],
    });
    try {
      const run = await runKodo(['--input-format', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        input,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('Noted.\nDone.\n');
      expect(mock.requests).toHaveLength(3);
      expect(JSON.stringify(mock.requests[2]!.body)).toContain('durable facts worth remembering');
      const [file] = readdirSync(join(dirs.home, 'memory-inbox'));
      const inbox = JSON.parse(readFileSync(join(dirs.home, 'memory-inbox', file!), 'utf8')) as {
        fact: string;
      }[];
      expect(inbox.map((entry) => entry.fact)).toEqual(['The project uses pnpm.']);
    } finally {
      await mock.close();
    }
  });
});
