import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Part, Workspace } from '@kodo/core/engine';
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
      toolContext: { workspace: new Workspace({ roots: [root] }) },
      agents: { list: () => [{ name: 'reviewer' }] },
      addContext: (parts) => context.push(...parts),
      steer: (line) => log.push(`steer ${line}`),
      takeSteering: () => [],
      // biome-ignore lint/correctness/useYield: no tool runs in these tests
      async *runUserToolCall(name) {
        throw new Error(`no tool call expected (${name})`);
      },
    },
    agent: {
      busy: false,
      send: async (input) => {
        log.push(`send ${typeof input === 'string' ? input.split('\n')[0] : 'parts'}`);
        sent.push(input);
      },
      runTool: async (name, args) => {
        log.push(`tool ${name} ${JSON.stringify(args)}`);
        return { status: 'success', output: 'tool output' };
      },
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
      'tool run_shell_command {"command":"ls -la"}',
      'tool run_shell_command {"command":"pwd"}',
      'command stats model',
      'prompt start',
      'send @reviewer look at this',
    ]);
    // The person's shell lines reach the model with the next prompt, not now.
    expect(ui.context.map((part) => part.text)).toEqual([
      expect.stringContaining('ls -la'),
      expect.stringContaining('pwd'),
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
