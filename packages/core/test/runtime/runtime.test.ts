import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinyServerEntry } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/config/settings';
import { FakeContentGenerator } from '../../src/llm/fake';
import { createRuntime } from '../../src/runtime/create-runtime';
import type { Runtime } from '../../src/runtime/runtime';
import { createRuntimeFromSettings } from '../../src/sdk/settings-runtime';

let root: string;
let cwd: string;
let home: string;
let env: NodeJS.ProcessEnv;
const opened: Runtime[] = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-runtime-')));
  cwd = join(root, 'project');
  home = join(root, 'home');
  mkdirSync(cwd);
  mkdirSync(home);
  env = { PATH: process.env.PATH, HOME: home, KODO_HOME: home, GEMINI_CLI_HOME: home, KODO_SANDBOX: 'false' };
});
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  rmSync(root, { recursive: true, force: true });
});

/** Session hooks that append `<event> <source or reason> <session id>` to `log`. */
function sessionHooks(log: string, name = 'hook'): Settings['hooks'] {
  const script = join(root, `${name}.mjs`);
  writeFileSync(
    script,
    `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(${JSON.stringify(log)}, [input.hook_event_name, input.source ?? input.reason, input.session_id].join(' ') + '\\n');
`,
  );
  const hook = [{ hooks: [{ type: 'command' as const, command: `node ${JSON.stringify(script)}` }] }];
  return { SessionStart: hook, SessionEnd: hook };
}

const logLines = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
const tiny = { tiny: { ...tinyServerEntry(), trust: true } };

async function runtimeWith(settings: Settings, onFlush: () => void = () => undefined): Promise<Runtime> {
  const runtime = await createRuntime({
    settings,
    cwd,
    env,
    trusted: true,
    approvals: { interactive: false },
    mcpDiscovery: 'wait',
    onWarning: () => undefined,
    onSessionWarning: () => undefined,
    generator: (model) => ({
      generator: new FakeContentGenerator([]),
      model,
      flush: async () => onFlush(),
    }),
  });
  opened.push(runtime);
  return runtime;
}

describe('createRuntime', () => {
  it('close() runs SessionEnd first, flushes while the MCP servers still run, and stops them last', async () => {
    const log = join(root, 'hooks.log');
    const atFlush: { ended: string[]; mcpTools: boolean }[] = [];
    let runtime: Runtime | undefined;
    runtime = await runtimeWith({ hooks: sessionHooks(log), mcpServers: tiny }, () =>
      atFlush.push({ ended: logLines(log), mcpTools: runtime?.tools.get('mcp_tiny_echo') !== undefined }),
    );
    expect(runtime.tools.get('mcp_tiny_echo')).toBeDefined();
    const { session } = await runtime.newSession();
    await Promise.all([runtime.close(), runtime.close()]);
    expect(atFlush).toEqual([{ ended: [`SessionEnd exit ${session.id}`], mcpTools: true }]);
    // The servers are gone, and so are their tools.
    expect(runtime.tools.get('mcp_tiny_echo')).toBeUndefined();
    await expect(runtime.newSession()).rejects.toThrow('The runtime is closed.');
  });

  it('clearSession ends the old session (clear) and starts a new one (clear) on the same MCP servers', async () => {
    const log = join(root, 'hooks.log');
    const runtime = await runtimeWith({ hooks: sessionHooks(log), mcpServers: tiny });
    const servers = runtime.mcp;
    const first = (await runtime.newSession()).session;
    const second = (await runtime.clearSession(first)).session;
    expect(second.id).not.toBe(first.id);
    expect(runtime.mcp).toBe(servers);
    expect(runtime.tools.get('mcp_tiny_echo')).toBeDefined();
    await runtime.close();
    expect(logLines(log)).toEqual([
      `SessionEnd clear ${first.id}`,
      `SessionStart clear ${second.id}`,
      // Only the session still open ends at close().
      `SessionEnd exit ${second.id}`,
    ]);
  });

  it('clearConversation keeps the session and its id, runs the clear hooks and empties the history', async () => {
    const log = join(root, 'hooks.log');
    const runtime = await runtimeWith({ hooks: sessionHooks(log) });
    const { session } = await runtime.newSession();
    session.addContext([{ text: 'remember this' }]);
    await runtime.clearConversation(session);
    expect(session.history()).toEqual([]);
    expect(logLines(log)).toEqual([`SessionEnd clear ${session.id}`, `SessionStart clear ${session.id}`]);
  });

  it('a fork shares the runtime and ends at close()', async () => {
    const log = join(root, 'hooks.log');
    const runtime = await runtimeWith({ hooks: sessionHooks(log) });
    const { session } = await runtime.newSession();
    const forked = runtime.forkSession(session);
    await runtime.close();
    expect(logLines(log).map((line) => line.split(' ')[1])).toEqual(['exit', 'exit']);
    expect(forked.id).not.toBe(session.id);
  });

  it("a session's dispose() is no second teardown: it refuses and names runtime.close(), which still ends it", async () => {
    const log = join(root, 'hooks.log');
    const runtime = await runtimeWith({ hooks: sessionHooks(log), mcpServers: tiny });
    const { session } = await runtime.newSession();
    const forked = runtime.forkSession(session);
    await expect(session.dispose()).rejects.toThrow('runtime.close()');
    await expect(forked.dispose()).rejects.toThrow('runtime.close()');
    // Nothing of the run was torn down: its MCP tools are there and it still hands out sessions.
    expect(runtime.tools.get('mcp_tiny_echo')).toBeDefined();
    await runtime.newSession();
    expect(logLines(log)).toEqual([]);
    await runtime.close();
    expect(logLines(log).map((line) => line.split(' ')[1])).toEqual(['exit', 'exit', 'exit']);
  });
});

describe("the SDK's settings preset (createRuntimeFromSettings)", () => {
  it("reads the user's settings in a folder it does not trust: their hooks run, the project's do not", async () => {
    const userLog = join(root, 'user.log');
    const projectLog = join(root, 'project.log');
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ hooks: sessionHooks(userLog), mcpServers: tiny }),
    );
    mkdirSync(join(cwd, '.kodo'));
    writeFileSync(
      join(cwd, '.kodo', 'settings.json'),
      JSON.stringify({ hooks: sessionHooks(projectLog, 'project-hook') }),
    );
    const runtime = await createRuntimeFromSettings({
      cwd,
      env,
      generator: new FakeContentGenerator([]),
      onWarning: () => undefined,
    });
    opened.push(runtime);
    // As `kodo -p` restricted: no stdio server starts in an untrusted folder, not even the user's.
    expect(runtime.tools.get('mcp_tiny_echo')).toBeUndefined();
    const { session } = await runtime.newSession();
    await session.start('startup');
    await runtime.close();
    expect(logLines(userLog)).toEqual([
      `SessionStart startup ${session.id}`,
      `SessionEnd exit ${session.id}`,
    ]);
    // The project's own settings count only in a trusted folder.
    expect(existsSync(projectLog)).toBe(false);
  });

  it("in a trusted folder: the user's MCP servers are offered and the project's hooks run", async () => {
    const projectLog = join(root, 'project.log');
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: tiny }));
    mkdirSync(join(cwd, '.kodo'));
    writeFileSync(join(cwd, '.kodo', 'settings.json'), JSON.stringify({ hooks: sessionHooks(projectLog) }));
    const runtime = await createRuntimeFromSettings({
      cwd,
      // Trusted as kodo's rules say (here: the variable the CLI also reads).
      env: { ...env, KODO_TRUST_WORKSPACE: 'true' },
      generator: new FakeContentGenerator([]),
      onWarning: () => undefined,
    });
    opened.push(runtime);
    expect(runtime.tools.get('mcp_tiny_echo')).toBeDefined();
    const { session } = await runtime.newSession();
    await session.start('startup');
    expect(logLines(projectLog)).toEqual([`SessionStart startup ${session.id}`]);
  });
});
