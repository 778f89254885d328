import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findOnPath, probeBwrap } from '@kodo/core/engine';
import { KODO_BIN, runKodo } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs, spawnedKodoEnv } from './helpers';

/**
 * What a same-user process could get from a running kodo, and what kodo's commands leave behind:
 * the API key in /proc/<kodo pid>/environ, and (with the sandbox off) processes that escaped the
 * command's process group. Also the sandbox's private /tmp through the real `kodo`.
 */
const dirs = e2eDirs();
const BWRAP = findOnPath('bwrap', process.env);
const probe = BWRAP ? await probeBwrap(BWRAP) : { ok: false as const, message: 'bwrap is not installed' };

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

function baseEnv(): Record<string, string> {
  return spawnedKodoEnv(dirs.home, { GEMINI_CLI_HOME: dirs.home });
}

/** A fake-responses file: the model runs `command`, then says it is done. */
function script(command: string): string {
  const turn = (parts: unknown[]) =>
    JSON.stringify({
      method: 'generateContentStream',
      response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }],
    });
  const file = join(dirs.root, 'fake.jsonl');
  writeFileSync(
    file,
    `${[turn([{ functionCall: { name: 'run_shell_command', args: { command } } }]), turn([{ text: 'Done.' }])].join('\n')}\n`,
  );
  return file;
}

describe.skipIf(process.platform !== 'linux')('the API key is not in /proc/<kodo pid>/environ', () => {
  it('while kodo waits on a provider that never answers, yet the request carried the key', async () => {
    const key = `AIza-e2e-${process.pid}-${Date.now()}-secret`;
    let request: IncomingMessage | undefined;
    server = createServer((req) => {
      // Never answers: kodo stays up, waiting.
      request = req;
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const child = spawn(process.execPath, [KODO_BIN, '-p', 'hi'], {
      cwd: dirs.workspace,
      env: {
        ...baseEnv(),
        GEMINI_API_KEY: key,
        GITHUB_TOKEN: `${key}-gh`,
        KODO_E2E_MARKER: 'visible-marker',
        GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`,
      },
      stdio: 'ignore',
    });
    try {
      const deadline = Date.now() + 20_000;
      while (!request && Date.now() < deadline) await sleep(25);
      expect(request, 'kodo never sent its request').toBeDefined();
      expect(request!.headers['x-goog-api-key'] ?? '').toBe(key);
      const environ = readFileSync(`/proc/${child.pid}/environ`, 'latin1');
      // The file is the right one and readable: the ordinary variable is there.
      expect(environ).toContain('KODO_E2E_MARKER=visible-marker');
      expect(environ).not.toContain(key);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe.skipIf(!BWRAP || !probe.ok)('processes of commands end with the session', () => {
  it('with the sandbox off, a setsid or double-forked process does not outlive kodo', async () => {
    const marker = `kodo-e2e-escape-${process.pid}-${Date.now()}`;
    const command = `setsid bash -c "exec -a ${marker} sleep 300" </dev/null >/dev/null 2>&1 & ( ( exec -a ${marker} sleep 300 </dev/null >/dev/null 2>&1 & ) & ); sleep 0.3; echo started > started.txt`;
    try {
      const run = await runKodo(['-y', '-p', 'run', '--fake-responses', script(command)], {
        cwd: dirs.workspace,
        env: { ...baseEnv(), KODO_SANDBOX: 'false' },
        timeoutMs: 30_000,
      });
      expect(run.code).toBe(0);
      expect(existsSync(join(dirs.workspace, 'started.txt'))).toBe(true);
      const deadline = Date.now() + 3000;
      while (processesNamed(marker).length > 0 && Date.now() < deadline) await sleep(25);
      expect(processesNamed(marker)).toEqual([]);
    } finally {
      for (const pid of processesNamed(marker)) process.kill(pid, 'SIGKILL');
    }
  });

  it("with the sandbox, a command's /tmp is its own: nothing reaches the host's", async () => {
    const tag = `kodo-e2e-tmp-${process.pid}-${Date.now()}`;
    writeFileSync(join(dirs.root, 'host-file.txt'), 'host temp file\n');
    const command = `echo planted > /tmp/${tag}; cat ${dirs.root}/host-file.txt > seen.txt 2>&1; cat /tmp/${tag} >> seen.txt`;
    const run = await runKodo(['-s', '-y', '-p', 'run', '--fake-responses', script(command)], {
      cwd: dirs.workspace,
      env: baseEnv(),
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    const seen = readFileSync(join(dirs.workspace, 'seen.txt'), 'utf8');
    expect(seen).not.toContain('host temp file');
    expect(seen).toContain('planted');
    expect(existsSync(join('/tmp', tag))).toBe(false);
  });
});

/** Live processes whose argv[0] is `name`. */
function processesNamed(name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] === name && state !== 'Z') {
        found.push(Number(entry));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
