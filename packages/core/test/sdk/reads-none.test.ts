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
import { dirname, join } from 'node:path';
import { tinyServerEntry } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import type { AgentEvent } from '../../src/contracts/events';
import type { GenerateRequest } from '../../src/contracts/messages';
import { FakeContentGenerator } from '../../src/llm/fake';
import type { Runtime } from '../../src/runtime/runtime';
import { RuntimeSetupError } from '../../src/runtime/setup-error';
import { createSession, SessionSetupError } from '../../src/sdk/create-session';
import { createRuntimeFromOptions } from '../../src/sdk/options-runtime';
import { createRuntimeFromSettings } from '../../src/sdk/settings-runtime';
import type { Session } from '../../src/session/session';
import { isGroupAlive } from '../../src/tools/shell/process-group';
import { calls, collect, stream, text } from '../helpers';
import { capturingGenerator } from '../session/store-helpers';

let root: string;
let cwd: string;
let home: string;
let kodoHome: string;
let env: NodeJS.ProcessEnv;
const opened: Runtime[] = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-reads-none-')));
  cwd = join(root, 'project');
  home = join(root, 'home');
  kodoHome = join(home, '.kodo');
  mkdirSync(cwd);
  mkdirSync(kodoHome, { recursive: true });
  env = {
    PATH: process.env.PATH,
    HOME: home,
    KODO_HOME: kodoHome,
    GEMINI_CLI_HOME: home,
    KODO_SANDBOX: 'false',
    // Even a folder kodo's rules trust has nothing read from it.
    KODO_TRUST_WORKSPACE: 'true',
  };
});
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  rmSync(root, { recursive: true, force: true });
});

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/**
 * Everything kodo reads on a real run, each with something a test can see: settings (a hook, an
 * MCP server, an excluded tool) at user and project level, context files, policy files that
 * deny read_file, and a skill.
 */
function configureEverything(): { hookLog: string } {
  const hookLog = join(root, 'hooks.log');
  const script = join(root, 'hook.mjs');
  writeFileSync(
    script,
    `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(${JSON.stringify(hookLog)}, input.hook_event_name + '\\n');
`,
  );
  const hook = [{ hooks: [{ type: 'command', command: `node ${JSON.stringify(script)}` }] }];
  const settings = {
    hooks: { SessionStart: hook, SessionEnd: hook, BeforeTool: hook },
    mcpServers: { tiny: { ...tinyServerEntry(), trust: true } },
    tools: { exclude: ['glob'] },
  };
  write(join(kodoHome, 'settings.json'), JSON.stringify(settings));
  write(join(cwd, '.kodo', 'settings.json'), JSON.stringify({ hooks: { SessionStart: hook } }));
  write(join(kodoHome, 'KODO.md'), 'USER-KODO-MD-MARKER\n');
  write(join(home, '.gemini', 'GEMINI.md'), 'USER-GEMINI-MD-MARKER\n');
  write(join(cwd, 'KODO.md'), 'PROJECT-KODO-MD-MARKER\n');
  write(join(cwd, 'GEMINI.md'), 'PROJECT-GEMINI-MD-MARKER\n');
  const deny = '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\npriority = 500\n';
  write(join(kodoHome, 'policies', 'deny.toml'), deny);
  write(join(cwd, '.kodo', 'policies', 'deny.toml'), deny);
  write(
    join(kodoHome, 'skills', 'helper', 'SKILL.md'),
    '---\nname: helper\ndescription: Helps.\n---\nBody.\n',
  );
  write(join(cwd, 'notes.txt'), 'the notes\n');
  return { hookLog };
}

/** A model that reads notes.txt, then answers; it keeps every request it was sent. */
/** A model that asks to read notes.txt, then answers; it keeps every request. */
function readingModel(): ContentGenerator & { requests: GenerateRequest[] } {
  return capturingGenerator([
    [calls({ name: 'read_file', args: { file_path: 'notes.txt' } })],
    [text('done')],
  ]);
}

const MARKERS = /USER-KODO-MD|USER-GEMINI-MD|PROJECT-KODO-MD|PROJECT-GEMINI-MD/;

/** Runs one prompt; returns what the model was sent and read_file's status. */
async function readNotes(session: Session, model: { requests: GenerateRequest[] }) {
  await session.start('startup');
  const { events, result } = await collect(
    session.sendMessage('read the notes', new AbortController().signal),
  );
  const read = events.find(
    (event): event is Extract<AgentEvent, { type: 'tool_call_response' }> =>
      event.type === 'tool_call_response',
  );
  return { outcome: result.kind, readStatus: read?.response.status, sent: JSON.stringify(model.requests) };
}

const logLines = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

describe('the SDK preset that reads nothing (createRuntimeFromOptions, createSession)', () => {
  it('the settings preset reads every file of the setup (the control for the tests below)', async () => {
    const { hookLog } = configureEverything();
    const model = readingModel();
    const runtime = await createRuntimeFromSettings({
      cwd,
      env,
      generator: model,
      onWarning: () => undefined,
    });
    opened.push(runtime);
    expect(runtime.tools.get('mcp_tiny_echo')).toBeDefined();
    expect(runtime.tools.get('activate_skill')).toBeDefined();
    const { session } = await runtime.newSession();
    const run = await readNotes(session, model);
    expect(run.readStatus).toBe('error');
    expect(run.sent).toMatch(MARKERS);
    expect(logLines(hookLog)).toContain('SessionStart');
  });

  it('createRuntimeFromOptions reads no settings, context, policy, hook, MCP or skill file, and writes no session log', async () => {
    const { hookLog } = configureEverything();
    const model = readingModel();
    const runtime = await createRuntimeFromOptions({ cwd, env, generator: model, model: 'scripted' });
    opened.push(runtime);
    expect(runtime.model).toBe('scripted');
    expect(runtime.mcp).toBeUndefined();
    expect(runtime.extensibility).toBeUndefined();
    expect(runtime.tools.get('mcp_tiny_echo')).toBeUndefined();
    expect(runtime.tools.get('activate_skill')).toBeUndefined();
    // `tools.exclude` in the settings is not read either: glob stays.
    expect(runtime.tools.get('glob')).toBeDefined();
    const { session, recorder } = await runtime.newSession();
    expect(recorder).toBeUndefined();
    const run = await readNotes(session, model);
    expect(run).toMatchObject({ outcome: 'completed', readStatus: 'success' });
    expect(run.sent).not.toMatch(MARKERS);
    await runtime.close();
    expect(logLines(hookLog)).toEqual([]);
    expect(existsSync(join(kodoHome, 'sessions'))).toBe(false);
    await expect(runtime.newSession()).rejects.toThrow('The runtime is closed.');
  });

  it('createSession is one session of that preset: nothing of the setup is read either', async () => {
    const { hookLog } = configureEverything();
    const model = readingModel();
    const session = createSession({ cwd, env, generator: model, model: 'scripted' });
    const run = await readNotes(session, model);
    expect(run).toMatchObject({ outcome: 'completed', readStatus: 'success' });
    expect(run.sent).not.toMatch(MARKERS);
    await session.dispose();
    expect(logLines(hookLog)).toEqual([]);
    expect(existsSync(join(kodoHome, 'sessions'))).toBe(false);
  });
});

describe("the preset's teardown is the runtime's", () => {
  /** A model that starts `sleep 30` in the background, then answers. */
  const backgroundModel = () =>
    new FakeContentGenerator(
      [
        stream(
          calls({
            name: 'run_shell_command',
            args: { command: 'sleep 30', is_background: true, delay_ms: 50 },
          }),
        ),
        stream(text('started')),
      ],
      { strict: true },
    );

  async function startBackground(session: Session): Promise<number> {
    const { events } = await collect(session.sendMessage('start it', new AbortController().signal));
    const response = events.find(
      (event): event is Extract<AgentEvent, { type: 'tool_call_response' }> =>
        event.type === 'tool_call_response',
    );
    const pid = Number(/PID: (\d+)/.exec(JSON.stringify(response?.response.responseParts))?.[1]);
    expect(isGroupAlive(pid)).toBe(true);
    return pid;
  }

  it('close() ends the sessions and stops their background commands, once however often it is called', async () => {
    const runtime = await createRuntimeFromOptions({
      cwd,
      env,
      generator: backgroundModel(),
      approvalMode: 'yolo',
    });
    opened.push(runtime);
    const { session } = await runtime.newSession();
    const pid = await startBackground(session);
    const closing = runtime.close();
    expect(runtime.close()).toBe(closing);
    await closing;
    expect(isGroupAlive(pid)).toBe(false);
  });

  it("createSession's dispose() is its runtime's close(): background commands stop there", async () => {
    const session = createSession({ cwd, env, generator: backgroundModel(), approvalMode: 'yolo' });
    const pid = await startBackground(session);
    await session.dispose();
    expect(isGroupAlive(pid)).toBe(false);
  });

  it('keeps no session logs, so there is nothing to resume', async () => {
    const runtime = await createRuntimeFromOptions({ cwd, env, generator: backgroundModel() });
    opened.push(runtime);
    const summary = { id: 'x', file: join(root, 'x.jsonl') } as Parameters<Runtime['resumeSession']>[0];
    await expect(runtime.resumeSession(summary)).rejects.toThrow(RuntimeSetupError);
  });
});

describe('setup errors', () => {
  it('a model without its key: RuntimeSetupError (auth); createSession throws SessionSetupError, also one', async () => {
    await expect(createRuntimeFromOptions({ cwd, env, model: 'openai:gpt-5' })).rejects.toMatchObject({
      failure: 'auth',
    });
    let thrown: unknown;
    try {
      createSession({ cwd, env, model: 'openai:gpt-5' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SessionSetupError);
    expect(thrown).toBeInstanceOf(RuntimeSetupError);
    expect(thrown).toMatchObject({ name: 'SessionSetupError', failure: 'auth' });
    expect((thrown as Error).message).toContain('OPENAI_API_KEY');
  });
});
