/**
 * The seam between the engine and its front ends (issue O): each front end drives a runtime that
 * owns the engine's parts and tears them down in one order. These are the bugs a review found
 * where front ends assembled and ended sessions themselves.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { startAcpKodo } from './acp-harness';
import { writeScript } from './acp-script';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();
const env = () => ({ KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, GEMINI_API_KEY: 'test-key' });

/** A hook script that appends `<event> <source or reason>` to `log`. */
function sessionHooks(folder: string, log: string): Record<string, unknown> {
  writeFileSync(
    join(folder, 'hook.mjs'),
    `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(${JSON.stringify(log)}, [input.hook_event_name, input.source ?? input.reason].join(' ') + '\\n');
`,
  );
  const hook = [
    { hooks: [{ type: 'command', command: `node ${JSON.stringify(join(folder, 'hook.mjs'))}` }] },
  ];
  return { SessionStart: hook, SessionEnd: hook };
}

function projectSettings(folder: string, settings: Record<string, unknown>): void {
  mkdirSync(join(folder, '.kodo'), { recursive: true });
  writeFileSync(join(folder, '.kodo', 'settings.json'), JSON.stringify(settings));
}

async function lines(file: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('one teardown order under every front end', () => {
  it('headless: the SessionEnd hooks run before telemetry shuts down (their runs are exported)', async () => {
    const outfile = join(dirs.home, 'telemetry.json');
    const log = join(dirs.root, 'hooks.log');
    projectSettings(dirs.workspace, {
      telemetry: { enabled: true, outfile },
      hooks: sessionHooks(dirs.workspace, log),
    });
    const script = writeScript(dirs.root, 'answer.jsonl', [[{ text: 'Done.' }]]);
    const run = await runKodo(['-p', 'hi', '--fake-responses', script], {
      cwd: dirs.workspace,
      env: { ...env(), KODO_TRUST_WORKSPACE: 'true' },
    });
    expect(run.code).toBe(0);
    expect(await lines(log, 2)).toEqual(['SessionStart startup', 'SessionEnd exit']);
    const exported = readFileSync(outfile, 'utf8');
    expect(exported).toContain('"hook_event_name": "SessionStart"');
    expect(exported).toContain('"hook_event_name": "SessionEnd"');
  });
});

describe('kodo --acp sessions get what the CLI gives them', () => {
  it('/clear runs the clear hooks: SessionEnd (clear) then SessionStart (clear)', async () => {
    const log = join(dirs.root, 'hooks.log');
    projectSettings(dirs.workspace, { hooks: sessionHooks(dirs.workspace, log) });
    const script = writeScript(dirs.root, 'answers.jsonl', [[{ text: 'First.' }]]);
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: env(), args: ['--fake-responses', script] });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
      await kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/clear' }] });
      expect(await lines(log, 3)).toEqual(['SessionStart startup', 'SessionEnd clear', 'SessionStart clear']);
    } finally {
      expect(await kodo.close()).toBe(0);
    }
    expect(await lines(log, 4)).toEqual([
      'SessionStart startup',
      'SessionEnd clear',
      'SessionStart clear',
      'SessionEnd exit',
    ]);
  });

  it("a session in another folder runs with that folder's settings, not the launch folder's", async () => {
    const other = join(dirs.root, 'other project');
    mkdirSync(other);
    const launchLog = join(dirs.root, 'launch.log');
    const otherLog = join(dirs.root, 'other.log');
    projectSettings(dirs.workspace, { hooks: sessionHooks(dirs.workspace, launchLog) });
    projectSettings(other, { hooks: sessionHooks(other, otherLog) });
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: env(), args: [] });
    try {
      await kodo.initialize();
      await kodo.agent.request('session/new', { cwd: other, mcpServers: [] });
      expect(await lines(otherLog, 1)).toEqual(['SessionStart startup']);
      expect(existsSync(launchLog)).toBe(false);
    } finally {
      await kodo.close();
    }
  });

  it("one folder's .env does not reach a session in another folder", async () => {
    const first = join(dirs.root, 'first');
    const second = join(dirs.root, 'second');
    mkdirSync(first);
    mkdirSync(second);
    writeFileSync(join(first, '.env'), 'KODO_SEAM_MARKER=from-first\n');
    const log = join(dirs.root, 'marker.log');
    writeFileSync(
      join(second, 'hook.mjs'),
      `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(log)}, (process.env.KODO_SEAM_MARKER ?? 'unset') + '\\n');
`,
    );
    projectSettings(second, {
      hooks: {
        SessionStart: [
          { hooks: [{ type: 'command', command: `node ${JSON.stringify(join(second, 'hook.mjs'))}` }] },
        ],
      },
    });
    const kodo = startAcpKodo({ cwd: dirs.workspace, env: env(), args: [] });
    try {
      await kodo.initialize();
      await kodo.agent.request('session/new', { cwd: first, mcpServers: [] });
      await kodo.agent.request('session/new', { cwd: second, mcpServers: [] });
      expect(await lines(log, 1)).toEqual(['unset']);
    } finally {
      await kodo.close();
    }
  });
});
