// A program reads typed lines through the same input pipeline as every kodo front end, using only
// the public entry of @kodo/core (docs/sdk.md, "Typed lines").
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ConfirmationRequest,
  createRuntimeFromSettings,
  FakeContentGenerator,
  type InputSources,
  listCommands,
  type ResolveOptions,
  type Runtime,
  resolveInput,
  runShellLine,
} from '../../src/index';
import { stream, text } from '../helpers';

let root: string;
let cwd: string;
let runtime: Runtime | undefined;

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-sdk-input-')));
  cwd = join(root, 'project');
  write(join(cwd, 'notes.txt'), 'NOTES-MARKER\n');
  write(
    join(cwd, '.kodo', 'commands', 'audit.toml'),
    'description = "Audit a file with care"\nprompt = "Audit {{args}} with care."\n',
  );
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  rmSync(root, { recursive: true, force: true });
});

/** A runtime from the project's settings (its commands included), and what a program passes the pipeline. */
async function open(options: { confirm?: (request: ConfirmationRequest) => void } = {}) {
  const home = join(root, 'home');
  runtime = await createRuntimeFromSettings({
    cwd,
    env: { PATH: process.env.PATH, HOME: home, KODO_HOME: join(home, '.kodo'), KODO_SANDBOX: 'false' },
    trusted: true,
    generator: new FakeContentGenerator([stream(text('ok'))]),
    ...(options.confirm
      ? {
          confirm: async (request: ConfirmationRequest) => {
            options.confirm?.(request);
            return { outcome: 'proceed_once' as const };
          },
        }
      : {}),
    onWarning: () => undefined,
  });
  const opened = runtime;
  const { session } = await opened.newSession();
  // The runtime names its commands, skills and MCP prompts itself: nothing for a program to assemble.
  const sources: InputSources = opened.inputSources();
  const resolve = (line: string) =>
    resolveInput({ text: line }, {
      frontEnd: 'sdk',
      session,
      sources,
      signal: new AbortController().signal,
    } satisfies ResolveOptions);
  return { session, sources, resolve };
}

const sent = (prompt: string | unknown[]) => (typeof prompt === 'string' ? prompt : JSON.stringify(prompt));

describe('the input pipeline through the public entry', () => {
  it('attaches an @file to the prompt', async () => {
    const { resolve } = await open();
    const resolved = await resolve('summarise @notes.txt');
    expect(resolved).toMatchObject({ kind: 'prompt', source: 'typed', display: 'summarise @notes.txt' });
    if (resolved.kind !== 'prompt') return;
    expect(resolved.attached).toEqual(['notes.txt']);
    expect(sent(resolved.prompt)).toContain('NOTES-MARKER');
  });

  it("expands the project's custom command and lists it among the SDK's commands", async () => {
    const { resolve, sources } = await open();
    const resolved = await resolve('/audit src/app.ts');
    expect(resolved).toMatchObject({
      kind: 'prompt',
      source: 'custom_command',
      display: '/audit src/app.ts',
    });
    if (resolved.kind !== 'prompt') return;
    expect(sent(resolved.prompt)).toContain('Audit src/app.ts with care.');
    expect(listCommands(sources, 'sdk')).toContainEqual({
      name: 'audit',
      description: 'Audit a file with care',
      kind: 'custom_command',
    });
    // No built-in session command runs in a program: it says so instead of sending the line.
    expect(listCommands(sources, 'sdk').filter((entry) => entry.kind === 'builtin')).toEqual([]);
    expect(await resolve('/clear')).toMatchObject({ kind: 'error' });
    expect(await resolve('/no-such-command')).toMatchObject({
      kind: 'error',
      unknownCommand: 'no-such-command',
    });
  });

  it('runs a !command with approval, and its output joins the conversation as context', async () => {
    const asked: ConfirmationRequest[] = [];
    const { resolve, session } = await open({ confirm: (request) => asked.push(request) });
    const resolved = await resolve('!echo SHELL-MARKER');
    expect(resolved).toEqual({ kind: 'shell', command: 'echo SHELL-MARKER' });
    if (resolved.kind !== 'shell') return;
    const result = await runShellLine(session, resolved.command, {
      frontEnd: 'sdk',
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ status: 'success', ran: true });
    expect(result.output).toContain('SHELL-MARKER');
    // A line from a program gets every check a model's call gets: here the program was asked.
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(session.history())).toContain('SHELL-MARKER');
  });
});
