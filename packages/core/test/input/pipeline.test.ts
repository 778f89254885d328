// Core's input pipeline: what a line means, the same in every front end (docs/architecture.md, "Input").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CustomCommand } from '../../src/commands/definition';
import type { AgentEvent } from '../../src/contracts/events';
import type { Part } from '../../src/contracts/messages';
import { BUILTIN_COMMANDS, builtinCommandsFor } from '../../src/input/builtin-commands';
import { resolveInput } from '../../src/input/pipeline';
import { runShellLine } from '../../src/input/shell-line';
import { listCommands } from '../../src/input/slash';
import type { FrontEnd, InputMcp, InputSession, InputSources } from '../../src/input/types';
import type { McpPromptCommand } from '../../src/mcp/prompts';
import type { CompletedToolCall } from '../../src/scheduler/scheduler';
import type { SkillDefinition } from '../../src/skills/definition';
import { Workspace } from '../../src/tools/workspace';

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

interface Call {
  name: string;
  args: Record<string, unknown>;
  requestedBy: string | undefined;
}

/** A session that records the user tool calls it is asked for and answers each with `answer`. */
function fakeSession(answer: (call: Call) => Partial<CompletedToolCall['response']> = () => ({})) {
  const root = mkdtempSync(join(tmpdir(), 'kodo-input-'));
  roots.push(root);
  const calls: Call[] = [];
  const context: Part[] = [];
  const session: InputSession & { addContext(parts: Part[]): void } = {
    model: 'gemini-2.5-pro',
    workspace: new Workspace({ roots: [root] }),
    listAgents: () => [{ name: 'reviewer' }],
    addContext: (parts) => context.push(...parts),
    // biome-ignore lint/correctness/useYield: a call that completes without progress events
    async *runUserToolCall(name, args, _signal, options) {
      const call = { name, args, requestedBy: options?.requestedBy };
      calls.push(call);
      const response = {
        callId: 'c1',
        name,
        status: 'success' as const,
        resultDisplay: '',
        responseParts: [] as Part[],
        ...answer(call),
      };
      return { request: { callId: 'c1', name, args }, response } as unknown as CompletedToolCall;
    },
  };
  return { session, calls, context, root };
}

const output = (text: string): Partial<CompletedToolCall['response']> => ({
  resultDisplay: text,
  responseParts: [{ functionResponse: { name: 'x', response: { output: text } } }],
});

function command(overrides: Partial<CustomCommand> = {}): CustomCommand {
  return {
    name: 'audit',
    baseName: 'audit',
    description: 'Audit a file',
    format: 'toml',
    template: 'Audit {{args}} carefully.',
    path: '/commands/audit.toml',
    scope: 'user',
    ...overrides,
  };
}

function fakeMcp(): InputMcp & { asked: Record<string, string>[] } {
  const asked: Record<string, string>[] = [];
  const greet: McpPromptCommand = {
    name: 'greet',
    server: 'tiny',
    description: 'Greet someone',
    prompt: {
      name: 'greet',
      description: 'Greet someone',
      arguments: [{ name: 'name', required: true }],
    },
  } as McpPromptCommand;
  return {
    asked,
    promptCommands: () => [greet],
    getPrompt: async (_server, _prompt, args) => {
      asked.push(args);
      return [{ role: 'user', content: { type: 'text', text: `Say hello to ${args.name}.` } }];
    },
    resourceServers: () => [{ name: 'tiny', resources: [] }],
    readResource: async () => [{ uri: 'tiny://notes/hello', text: 'Hello from a resource.' }],
  };
}

const skill: SkillDefinition = {
  name: 'tidy',
  description: 'Tidy the imports',
  body: 'Sort the imports.',
  location: '/skills/tidy/SKILL.md',
  dir: '/skills/tidy',
  scope: 'user',
} as SkillDefinition;

async function resolve(
  text: string,
  options: {
    frontEnd?: FrontEnd;
    sources?: InputSources;
    session?: ReturnType<typeof fakeSession>;
    parts?: Part[];
    events?: AgentEvent[];
  } = {},
) {
  const fake = options.session ?? fakeSession();
  return resolveInput(
    { text, ...(options.parts ? { parts: options.parts } : {}) },
    {
      frontEnd: options.frontEnd ?? 'acp',
      session: fake.session,
      sources: options.sources ?? {},
      signal: new AbortController().signal,
      ...(options.events ? { onEvent: (event) => options.events!.push(event) } : {}),
    },
  );
}

describe('resolveInput: typed prompts', () => {
  it('routes an @agent mention to the subagent and does not report it as a missing file', async () => {
    const resolved = await resolve('@reviewer look at the parser');
    expect(resolved).toMatchObject({ kind: 'prompt', agent: 'reviewer', source: 'typed', skipped: [] });
    if (resolved.kind !== 'prompt') return;
    expect(resolved.prompt).toContain("<system_note>The user asked for the 'reviewer' agent");
    expect(resolved.display).toBe('@reviewer look at the parser');
  });

  it('attaches @file, reports a missing one, and leaves @server:uri to the MCP step', async () => {
    const fake = fakeSession();
    writeFileSync(join(fake.root, 'notes.txt'), 'remember the changelog');
    const resolved = await resolve('Read @notes.txt and @gone.txt and @tiny:tiny://notes/hello', {
      session: fake,
      sources: { mcp: fakeMcp(), listFiles: async () => [] },
    });
    expect(resolved.kind).toBe('prompt');
    if (resolved.kind !== 'prompt') return;
    expect(resolved.attached).toEqual(['notes.txt']);
    expect(resolved.skipped).toEqual(['@gone.txt: not found']);
    expect(resolved.prompt).toContain('Content from @notes.txt:\nremember the changelog');
    expect(resolved.prompt).toContain('Content from @tiny:tiny://notes/hello:\nHello from a resource.');
  });

  it('does not attach a file the project’s ignore files exclude (read_file would refuse it)', async () => {
    const fake = fakeSession();
    writeFileSync(join(fake.root, '.gitignore'), '.env\n');
    writeFileSync(join(fake.root, '.env'), 'SECRET=1');
    const resolved = await resolve('what is in @.env', {
      session: fake,
      sources: { listFiles: async () => [] },
    });
    expect(resolved).toMatchObject({ kind: 'prompt', attached: [] });
    if (resolved.kind !== 'prompt') return;
    expect(resolved.skipped).toEqual(["@.env: excluded by the project's ignore files"]);
    expect(JSON.stringify(resolved.prompt)).not.toContain('SECRET');
  });

  it('puts parts the editor sent (images) after the text, and keeps a plain prompt a string', async () => {
    const image: Part = { inlineData: { mimeType: 'image/png', data: 'AAAA' } };
    const withImage = await resolve('what is this?', { parts: [image] });
    expect(withImage).toMatchObject({ kind: 'prompt', prompt: [{ text: 'what is this?' }, image] });
    expect(await resolve('just text')).toMatchObject({ kind: 'prompt', prompt: 'just text' });
  });

  it('takes a path that starts with / for a prompt, not a command', async () => {
    expect(await resolve('/usr/bin/env is missing')).toMatchObject({ kind: 'prompt', source: 'typed' });
  });
});

describe('resolveInput: commands', () => {
  it('!command is a shell line in every front end', async () => {
    for (const frontEnd of ['terminal', 'headless', 'acp'] as const) {
      expect(await resolve('!ls -la', { frontEnd })).toEqual({ kind: 'shell', command: 'ls -la' });
    }
  });

  it('a built-in runs where the table says; elsewhere the line is an error saying where it runs', async () => {
    expect(await resolve('/compress keep the plan', { frontEnd: 'acp' })).toEqual({
      kind: 'session_command',
      name: 'compress',
      args: 'keep the plan',
    });
    expect(await resolve('/compact', { frontEnd: 'terminal' })).toMatchObject({ name: 'compress' });
    const headless = await resolve('/compress', { frontEnd: 'headless' });
    expect(headless).toMatchObject({ kind: 'error' });
    if (headless.kind === 'error') expect(headless.message).toContain('does not run in headless runs');
  });

  it('expands a custom command with the existing expansion code ({{args}})', async () => {
    const resolved = await resolve('/audit src/app.ts', { sources: { commands: () => [command()] } });
    expect(resolved).toMatchObject({
      kind: 'prompt',
      source: 'custom_command',
      display: '/audit src/app.ts',
      prompt: [{ text: 'Audit src/app.ts carefully.' }],
    });
  });

  it('runs a command’s shell step as a call of the command (every check a model call gets)', async () => {
    const fake = fakeSession(() => output('status-ok'));
    const resolved = await resolve('/st now', {
      session: fake,
      sources: {
        commands: () => [command({ name: 'st', baseName: 'st', template: 'Status: !{git status}' })],
      },
    });
    expect(fake.calls).toEqual([
      { name: 'run_shell_command', args: { command: 'git status' }, requestedBy: 'command' },
    ]);
    expect(JSON.stringify(resolved)).toContain('Status: status-ok');
  });

  it('a refused shell step is an error and nothing is sent', async () => {
    const fake = fakeSession(() => ({
      status: 'error',
      resultDisplay: 'denied by policy',
      error: { type: 'policy_violation', message: 'denied by policy' } as never,
    }));
    const resolved = await resolve('/st', {
      session: fake,
      sources: { commands: () => [command({ name: 'st', baseName: 'st', template: '!{git status}' })] },
    });
    expect(resolved).toMatchObject({ kind: 'error' });
    if (resolved.kind === 'error')
      expect(resolved.message).toContain("/st: Shell command 'git status' was not run");
  });

  it('a custom command may not take a built-in’s name: the built-in wins everywhere', async () => {
    const sources = { commands: () => [command({ name: 'stats', baseName: 'stats' })] };
    expect(await resolve('/stats', { sources, frontEnd: 'acp' })).toMatchObject({ kind: 'session_command' });
    expect(listCommands(sources, 'acp').filter((entry) => entry.name === 'stats')).toHaveLength(1);
  });

  it('/<skill> activates the skill as the model’s call would, then sends its instructions and the request', async () => {
    const fake = fakeSession(() =>
      output('<activated_skill name="tidy">Sort the imports.</activated_skill>'),
    );
    const resolved = await resolve('/tidy only src', { session: fake, sources: { skills: () => [skill] } });
    expect(fake.calls).toEqual([{ name: 'activate_skill', args: { name: 'tidy' }, requestedBy: undefined }]);
    expect(resolved).toMatchObject({
      kind: 'prompt',
      source: 'skill',
      prompt: [
        { text: '<activated_skill name="tidy">Sort the imports.</activated_skill>' },
        { text: 'only src' },
      ],
    });
  });

  it('/<mcp prompt> becomes the server’s prompt; missing arguments and help are errors that say why', async () => {
    const mcp = fakeMcp();
    expect(await resolve('/greet Ada', { sources: { mcp } })).toMatchObject({
      kind: 'prompt',
      source: 'mcp_prompt',
      prompt: 'Say hello to Ada.',
    });
    expect(mcp.asked).toEqual([{ name: 'Ada' }]);
    expect(await resolve('/greet', { sources: { mcp } })).toMatchObject({
      kind: 'error',
      message: '/greet: Missing required argument(s): --name',
    });
    const help = await resolve('/greet help', { sources: { mcp } });
    expect(help.kind === 'error' && help.message).toContain('--name (required)');
  });

  it('an unknown command is an error that lists the commands there are', async () => {
    const resolved = await resolve('/nope', { sources: { commands: () => [command()], mcp: fakeMcp() } });
    expect(resolved).toMatchObject({ kind: 'error', unknownCommand: 'nope' });
    if (resolved.kind !== 'error') return;
    expect(resolved.message).toContain('Unknown command: /nope. Known commands:');
    expect(resolved.message).toContain('/audit  Audit a file');
    expect(resolved.message).toContain('/greet  (MCP prompt) Greet someone');
  });

  it('a front end’s own extra commands resolve as session commands', async () => {
    const resolved = await resolveInput(
      { text: '/mine x' },
      {
        frontEnd: 'terminal',
        session: fakeSession().session,
        sources: {},
        signal: new AbortController().signal,
        extraCommands: ['mine'],
      },
    );
    expect(resolved).toEqual({ kind: 'session_command', name: 'mine', args: 'x' });
  });
});

describe('the command list', () => {
  it('lists the front end’s built-ins, custom commands, skills and MCP prompts with their hints', () => {
    const listed = listCommands(
      { commands: () => [command({ argumentHint: '<file>' })], skills: () => [skill], mcp: fakeMcp() },
      'acp',
    );
    expect(listed.map((entry) => entry.name)).toEqual([
      ...builtinCommandsFor('acp').map((entry) => entry.name),
      'audit',
      'tidy',
      'greet',
    ]);
    expect(listed.find((entry) => entry.name === 'audit')?.hint).toBe('<file>');
    expect(listed.find((entry) => entry.name === 'greet')?.hint).toBe('name');
  });

  it('gives every built-in at least one front end, and no name twice', () => {
    const names = BUILTIN_COMMANDS.flatMap((entry) => [entry.name, ...(entry.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of BUILTIN_COMMANDS) expect(entry.frontEnds.length).toBeGreaterThan(0);
  });
});

describe('!command and hook context', () => {
  it('a shell line outside the terminal gets every check (requestedBy command); its output joins the context', async () => {
    const fake = fakeSession(() => output('a.txt\nb.txt'));
    const result = await runShellLine(fake.session, 'ls', {
      frontEnd: 'acp',
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ status: 'success', ran: true, output: 'a.txt\nb.txt' });
    expect(fake.calls[0]?.requestedBy).toBe('command');
    expect(fake.context[0]?.text).toContain('I ran the following shell command:\n```sh\nls\n```');
  });

  it('a shell line typed at the terminal is the person’s call; a cancelled one adds nothing', async () => {
    const fake = fakeSession((call) =>
      call.args.command === 'sleep 30' ? { status: 'cancelled' } : output('/work'),
    );
    const signal = new AbortController().signal;
    expect(await runShellLine(fake.session, 'sleep 30', { frontEnd: 'terminal', signal })).toEqual({
      status: 'cancelled',
      ran: false,
      output: '',
    });
    expect(fake.context).toEqual([]);
    expect(await runShellLine(fake.session, 'pwd', { frontEnd: 'terminal', signal })).toEqual({
      status: 'success',
      ran: true,
      output: '/work',
    });
    expect(fake.calls.map((call) => call.requestedBy)).toEqual(['user', 'user']);
    expect(fake.context[0]?.text).toContain('```sh\npwd\n```');
  });

  it('a refused shell line adds nothing to the context', async () => {
    const fake = fakeSession(() => ({
      status: 'error',
      resultDisplay: 'denied',
      error: { message: 'denied' } as never,
    }));
    const result = await runShellLine(fake.session, 'rm -rf x', {
      frontEnd: 'headless',
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ status: 'error', ran: false, output: 'denied' });
    expect(fake.context).toEqual([]);
  });
});
