import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTmux, KODO_READY, KodoTmux, tinyServerEntry } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** Gemini CLI behaviours of the interactive UI, in a real terminal (tmux). */
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

let kodo: KodoTmux;

beforeEach(() => {
  kodo = new KodoTmux({ env: { KODO_SANDBOX: 'false' } });
});
afterEach(() => kodo.close());

async function lines(file: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!hasTmux())('Gemini CLI parity in the interactive UI', () => {
  it('/clear ends the session (SessionEnd clear) and starts a new one (SessionStart clear)', async () => {
    const log = join(kodo.workspace, 'session-hooks.log');
    writeFileSync(
      join(kodo.workspace, 'hook.mjs'),
      `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(${JSON.stringify(log)}, [input.hook_event_name, input.source ?? input.reason, input.session_id].join(' ') + '\\n');
`,
    );
    mkdirSync(join(kodo.workspace, '.kodo'));
    const hook = [{ hooks: [{ type: 'command', command: 'node hook.mjs' }] }];
    writeFileSync(
      join(kodo.workspace, '.kodo', 'settings.json'),
      JSON.stringify({ hooks: { SessionStart: hook, SessionEnd: hook } }),
    );
    const session = await kodo.startReady(['--fake-responses', join(fixtures, 'ui-text.jsonl')]);
    expect(await lines(log, 1)).toHaveLength(1);
    session.type('/clear');
    await session.waitFor('/clear');
    session.press('Enter');
    const afterClear = await lines(log, 3);
    await session.waitFor(KODO_READY);
    session.press('C-d');
    await session.waitFor('[exited 0]');
    const all = (await lines(log, 4)).map((line) => line.split(' '));
    expect(all.map(([event, why]) => `${event} ${why}`)).toEqual([
      'SessionStart startup',
      'SessionEnd clear',
      'SessionStart clear',
      'SessionEnd exit',
    ]);
    expect(afterClear).toHaveLength(3);
    // The old session ends under its id; the new one has another id, which ends at exit.
    const [first, ended, started, exited] = all.map((parts) => parts[2]);
    expect(ended).toBe(first);
    expect(started).not.toBe(first);
    expect(exited).toBe(started);
  });

  it('/clear keeps the MCP servers the run started: no second set of server processes', async () => {
    const starts = join(kodo.workspace, 'mcp-starts.log');
    const tiny = tinyServerEntry();
    // The server notes each start, then is the tiny MCP server.
    writeFileSync(
      join(kodo.workspace, 'server.sh'),
      `echo started >> ${JSON.stringify(starts)}\nexec ${[tiny.command, ...tiny.args].map((word) => JSON.stringify(word)).join(' ')}\n`,
    );
    const log = join(kodo.workspace, 'session-hooks.log');
    writeFileSync(
      join(kodo.workspace, 'hook.mjs'),
      `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(${JSON.stringify(log)}, [input.hook_event_name, input.source ?? input.reason].join(' ') + '\\n');
`,
    );
    mkdirSync(join(kodo.workspace, '.kodo'));
    const hook = [{ hooks: [{ type: 'command', command: 'node hook.mjs' }] }];
    writeFileSync(
      join(kodo.workspace, '.kodo', 'settings.json'),
      JSON.stringify({
        hooks: { SessionStart: hook, SessionEnd: hook },
        mcpServers: { tiny: { command: 'sh', args: ['server.sh'], trust: true } },
      }),
    );
    const session = await kodo.startReady(['--fake-responses', join(fixtures, 'ui-text.jsonl')]);
    expect(await lines(starts, 1)).toEqual(['started']);
    for (const round of [3, 5]) {
      session.type('/clear');
      await session.waitFor('/clear');
      session.press('Enter');
      expect(await lines(log, round)).toHaveLength(round);
      await session.waitFor(KODO_READY);
    }
    // A second start would have been written by now (the first one took well under this).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readFileSync(starts, 'utf8').trim().split('\n')).toEqual(['started']);
    session.press('C-d');
    await session.waitFor('[exited 0]');
    expect((await lines(log, 6)).slice(1, 5)).toEqual([
      'SessionEnd clear',
      'SessionStart clear',
      'SessionEnd clear',
      'SessionStart clear',
    ]);
  });
});
