import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CompletedToolCall, type Part, Workspace } from '@kodo/core/engine';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SlashCommand } from '../../src/ui/commands/types';
import {
  type PromptDispatch,
  type PromptDispatchOptions,
  usePromptDispatch,
} from '../../src/ui/hooks/use-prompt-dispatch';
import type { NewHistoryItem } from '../../src/ui/types';

const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 10 });

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function Probe({ options, out }: { options: PromptDispatchOptions; out: { current?: PromptDispatch } }) {
  out.current = usePromptDispatch(options);
  return <Text>queued {out.current.queue.items.length}</Text>;
}

/** The hook with a recording agent, session and command runner; no model, no App. */
function harness(
  overrides: {
    paused?: boolean;
    commands?: readonly SlashCommand[];
    sources?: PromptDispatchOptions['sources'];
  } = {},
) {
  const root = mkdtempSync(join(tmpdir(), 'kodo-dispatch-'));
  const log: string[] = [];
  const items: NewHistoryItem[] = [];
  const context: Part[] = [];
  const remembered: string[] = ['earlier'];
  const sent: (string | Part[])[] = [];
  const options = (paused: boolean): PromptDispatchOptions => ({
    session: {
      model: 'gemini-2.5-pro',
      workspace: new Workspace({ roots: [root] }),
      listAgents: () => [{ name: 'reviewer' }],
      addContext: (parts) => context.push(...parts),
      steer: (line) => log.push(`steer ${line}`),
      takeSteering: () => [],
      // A shell line's call: `refuse …` is denied by the policy, `esc …` cancelled, the rest print.
      async *runUserToolCall(name, args, _signal, callOptions) {
        const command = String(args.command);
        log.push(`tool ${name} ${JSON.stringify(args)} by ${callOptions?.requestedBy}`);
        yield { type: 'tool_call_request', call: { callId: 'c1', name, args, promptId: 'p1' } };
        const response = command.startsWith('refuse')
          ? {
              status: 'error',
              resultDisplay: 'denied by policy',
              responseParts: [],
              error: { message: 'denied by policy' },
            }
          : command.startsWith('esc')
            ? { status: 'cancelled', resultDisplay: '', responseParts: [] }
            : {
                status: 'success',
                resultDisplay: `${command} output`,
                responseParts: [{ functionResponse: { name, response: { output: `${command} output` } } }],
              };
        return {
          request: { callId: 'c1', name, args },
          response: { callId: 'c1', ...response },
        } as never as CompletedToolCall;
      },
    },
    agent: {
      busy: false,
      send: async (input) => {
        log.push(`send ${typeof input === 'string' ? input.split('\n')[0] : 'parts'}`);
        sent.push(input);
      },
      // The UI draws the events live and lets Esc abort the signal; here they are only counted.
      track: (work) => work(new AbortController().signal, (event) => log.push(`event ${event.type}`)),
    },
    commands: overrides.commands ?? [],
    inputHistory: {
      load: () => [...remembered],
      add: (entry) => {
        remembered.push(entry);
        return [...remembered];
      },
    },
    listFiles: async () => [],
    ...(overrides.sources ? { sources: overrides.sources } : {}),
    addItem: (item) => items.push(item),
    runCommand: async (command, args) => {
      log.push(`command ${command.name} ${args}`);
    },
    onPromptStart: () => log.push('prompt start'),
    paused,
  });
  const out: { current?: PromptDispatch } = {};
  const view = render(<Probe options={options(overrides.paused ?? false)} out={out} />);
  cleanups.push(() => {
    view.unmount();
    rmSync(root, { recursive: true, force: true });
  });
  return {
    log,
    items,
    context,
    sent,
    dispatch: () => out.current!,
    frame: () => view.lastFrame() ?? '',
    setPaused: (paused: boolean) => view.rerender(<Probe options={options(paused)} out={out} />),
  };
}

const command = (name: string, whileBusy = false): SlashCommand => ({
  name,
  description: name,
  ...(whileBusy ? { whileBusy } : {}),
  run: () => undefined,
});

describe('usePromptDispatch (what a submitted line does)', () => {
  it('runs each kind of line its own way, one after another in the order submitted', async () => {
    const ui = harness({ commands: [command('stats')] });
    expect(ui.dispatch().inputHistory).toEqual(['earlier']);
    for (const [line, mode] of [
      ['hello', 'prompt'],
      ['ls -la', 'shell'],
      ['!pwd', 'prompt'],
      ['/nope', 'prompt'],
      ['/stats model', 'prompt'],
      ['@reviewer look at this', 'prompt'],
    ] as const) {
      ui.dispatch().submit(line, mode);
    }
    await until(() => expect(ui.log.filter((entry) => entry.startsWith('send'))).toHaveLength(2));
    expect(ui.log).toEqual([
      'prompt start',
      'send hello',
      // As typed at kodo's own prompt (core's runShellLine for the terminal): a policy's "ask" allows it.
      'tool run_shell_command {"command":"ls -la"} by user',
      'event tool_call_request',
      'tool run_shell_command {"command":"pwd"} by user',
      'event tool_call_request',
      'command stats model',
      'prompt start',
      'send @reviewer look at this',
    ]);
    // The person's shell lines reach the model with the next prompt, not now.
    expect(ui.context.map((part) => part.text)).toEqual([
      expect.stringContaining('I ran the following shell command:\n```sh\nls -la\n```'),
      expect.stringContaining('pwd output'),
    ]);
    expect(ui.items).toContainEqual({ kind: 'user', text: 'hello' });
    expect(ui.items).toContainEqual({ kind: 'shell-input', command: 'ls -la' });
    expect(ui.items).toContainEqual({
      kind: 'info',
      tone: 'error',
      text: 'Unknown command: /nope. Type /help for the list.',
    });
    expect(ui.items).toContainEqual({ kind: 'info', tone: 'info', text: 'Asking the reviewer agent.' });
    expect(ui.sent[1]).toEqual(expect.stringContaining('invoke_agent (agent_name "reviewer")'));
    // Remembered as typed; a shell-mode line with its `!`.
    expect(ui.dispatch().inputHistory).toEqual([
      'earlier',
      'hello',
      '!ls -la',
      '!pwd',
      '/nope',
      '/stats model',
      '@reviewer look at this',
    ]);
  });

  it('runs a shell line through core’s runShellLine: a refused or cancelled one adds nothing to the context', async () => {
    const ui = harness();
    ui.dispatch().submit('refuse rm -rf build', 'shell');
    ui.dispatch().submit('!esc sleep 30', 'prompt');
    ui.dispatch().submit('echo kept', 'shell');
    ui.dispatch().submit('what did it print?', 'prompt');
    await until(() => expect(ui.sent).toEqual(['what did it print?']));
    // The model learns only of the command that ran, as it would over ACP, headless or mcp serve.
    expect(ui.context).toHaveLength(1);
    expect(ui.context[0]?.text).toContain('```sh\necho kept\n```');
    expect(ui.context[0]?.text).toContain('echo kept output');
    expect(ui.log.filter((entry) => entry.startsWith('tool'))).toEqual([
      'tool run_shell_command {"command":"refuse rm -rf build"} by user',
      'tool run_shell_command {"command":"esc sleep 30"} by user',
      'tool run_shell_command {"command":"echo kept"} by user',
    ]);
    expect(ui.items.filter((item) => item.kind === 'shell-input')).toEqual([
      { kind: 'shell-input', command: 'refuse rm -rf build' },
      { kind: 'shell-input', command: 'esc sleep 30' },
      { kind: 'shell-input', command: 'echo kept' },
    ]);
  });

  it('holds lines while paused, except commands that may run alongside, then sends them in order', async () => {
    const ui = harness({ paused: true, commands: [command('export', true)] });
    ui.dispatch().submit('first', 'prompt');
    ui.dispatch().submit('/export', 'prompt');
    ui.dispatch().submit('second', 'prompt');
    await until(() => expect(ui.log).toEqual(['command export ']));
    await until(() => expect(ui.frame()).toContain('queued 2'));
    expect(ui.dispatch().queue.items).toEqual([
      { text: 'first', mode: 'prompt' },
      { text: 'second', mode: 'prompt' },
    ]);
    ui.setPaused(false);
    await until(() =>
      expect(ui.log).toEqual([
        'command export ',
        'prompt start',
        'send first',
        'prompt start',
        'send second',
      ]),
    );
    await until(() => expect(ui.frame()).toContain('queued 0'));
  });

  it('resolves custom commands and MCP prompts through core’s pipeline, as ACP and headless do', async () => {
    const ui = harness({
      sources: {
        commands: () => [
          {
            name: 'audit',
            baseName: 'audit',
            description: 'Audit a file',
            format: 'toml',
            template: 'Audit {{args}} carefully.',
            path: '/commands/audit.toml',
            scope: 'user',
          },
        ],
        mcp: {
          promptCommands: () => [
            {
              name: 'greet',
              server: 'tiny',
              description: 'Greet someone',
              prompt: { name: 'greet', arguments: [{ name: 'name', required: true }] },
            } as never,
          ],
          getPrompt: async (_server, _prompt, args) => [
            { role: 'user', content: { type: 'text', text: `Say hello to ${args.name}.` } },
          ],
          resourceServers: () => [],
          readResource: async () => [],
        },
      },
    });
    ui.dispatch().submit('/greet Ada', 'prompt');
    ui.dispatch().submit('/audit src/app.ts', 'prompt');
    await until(() => expect(ui.sent).toHaveLength(2));
    expect(ui.sent[0]).toBe('Say hello to Ada.');
    expect(ui.sent[1]).toEqual([{ text: 'Audit src/app.ts carefully.' }]);
    // The history shows what the person typed.
    expect(ui.items).toContainEqual({ kind: 'user', text: '/greet Ada' });
    expect(ui.items).toContainEqual({ kind: 'user', text: '/audit src/app.ts' });
  });
});
