import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { geminiChunk, KODO_BIN, runKodo, startGeminiMock } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs, spawnedKodoEnv } from './helpers';

const dirs = e2eDirs();

/** `kodo -p hi` against the mock, with its output streams piped to the test. */
function spawnHeadless(baseUrl: string) {
  return spawn(process.execPath, [KODO_BIN, '-p', 'hi'], {
    cwd: dirs.workspace,
    env: spawnedKodoEnv(dirs.home, { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: baseUrl }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('kodo demo', () => {
  it('replays the scripted session with real tools and the sample tests pass', async () => {
    // The scratch copy goes to the temp dir: this test's, so nothing is left behind.
    const run = await runKodo(['demo'], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, TMPDIR: dirs.root },
      timeoutMs: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("The model's replies are scripted");
    expect(run.stdout).toMatch(/→ tests pass \(5 passed, 0 failed\)/);
    expect(run.stdout).toContain('Tool calls: 6 (6 ok), lines +1 −1');
    const kept = /The scratch copy is kept in (\S+): look at the fixed code there/.exec(run.stdout)?.[1];
    expect(kept?.startsWith(`${dirs.root}/kodo-demo-`)).toBe(true);
    expect(existsSync(join(kept!, 'package.json'))).toBe(true);
    // The runtime every front end uses assembled it: the session is logged like any kodo run's.
    const logged = readdirSync(join(dirs.home, 'sessions'));
    expect(logged.some((dir) => dir.startsWith(basename(kept!).toLowerCase()))).toBe(true);
  });
});

describe('kodo input and cancellation', () => {
  it('combines piped stdin and -p as "<stdin>\\n\\n<prompt>"', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: [geminiChunk([{ text: 'ok' }])] }] });
    try {
      const run = await runKodo(['-p', 'summarise this'], {
        cwd: dirs.workspace,
        env: { KODO_HOME: dirs.home, GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: mock.url },
        input: 'line one\nline two\n',
      });
      expect(run.code).toBe(0);
      const body = mock.requests[0]!.body as { contents: { parts: { text?: string }[] }[] };
      const texts = body.contents[0]!.parts.map((part) => part.text ?? '');
      expect(texts.at(-1)).toBe('line one\nline two\n\nsummarise this');
    } finally {
      await mock.close();
    }
  });

  it('exits 130 on Ctrl-C (SIGINT) while the model is streaming', async () => {
    const mock = await startGeminiMock({
      script: [
        {
          fault: 'slow',
          delayMs: 5_000,
          chunks: [geminiChunk([{ text: 'a' }], { last: false }), geminiChunk([{ text: 'b' }])],
        },
      ],
    });
    try {
      const child = spawnHeadless(mock.url);
      let stdout = '';
      let stderr = '';
      let interrupted = false;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        // One Ctrl-C: a second one, landing after kodo has let go of SIGINT on its way out, would
        // end the process by the signal itself (code null), which is not what is tested here.
        if (!interrupted && stdout.includes('a')) {
          interrupted = true;
          child.kill('SIGINT');
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const started = Date.now();
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(130);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(stderr).toContain('Operation cancelled.');
    } finally {
      await mock.close();
    }
  });

  it('ends with 0 and no stack trace when the reader of stdout goes away (`kodo -p … | head`)', async () => {
    // ~240 KB of answer (distinct lines: repeated ones would stop as a loop), far more than a
    // pipe buffers, so the writes after the reader left fail (EPIPE).
    const text = Array.from({ length: 10_000 }, (_, index) => `line ${index} of the answer`).join('\n');
    const mock = await startGeminiMock({ script: [{ chunks: [geminiChunk([{ text }])] }] });
    try {
      const child = spawnHeadless(mock.url);
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      // Like `head -c 1`: take the first bytes, then close the pipe.
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).not.toMatch(/Error|EPIPE/);
      expect(code).toBe(0);
    } finally {
      await mock.close();
    }
  });
});
