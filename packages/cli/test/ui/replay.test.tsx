// `kodo --resume` in the UI: the recorded conversation is drawn before anything else.
import type { MessageRecord } from '@kodo/core/engine';
import { describe, expect, it } from 'vitest';
import { replayItems } from '../../src/ui/replay';
import { renderApp } from './helpers';

const describeCall = (name: string, args: Record<string, unknown>) => ({
  displayName: name === 'read_file' ? 'ReadFile' : name,
  description: typeof args.file_path === 'string' ? args.file_path : '',
});
const at = '2026-11-30T00:00:00.000Z';

/** A kodo log: the prompt (context prepended), a read, its result, the answer. */
const KODO_LOG: MessageRecord[] = [
  {
    id: 'm1',
    timestamp: at,
    type: 'user',
    content: [{ text: 'This is the kodo CLI. Some context…' }, { text: 'what does main do?' }],
    displayContent: 'what does main do?',
  },
  {
    id: 'm2',
    timestamp: at,
    type: 'gemini',
    content: [
      { text: 'checking the entry point', thought: true },
      { text: 'Let me look.' },
      { functionCall: { id: 'c1', name: 'read_file', args: { file_path: 'src/main.ts' } } },
    ],
  },
  {
    id: 'm3',
    timestamp: at,
    type: 'user',
    content: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: '…' } } }],
    toolResults: [{ id: 'c1', name: 'read_file', status: 'success', resultDisplay: 'Read 12 lines' }],
  },
  { id: 'm4', timestamp: at, type: 'gemini', content: [{ text: 'It starts the server.' }] },
  { id: 'm5', timestamp: at, type: 'warning', content: 'Loop detected' },
];

describe('replayItems', () => {
  it("turns kodo's log into history items: typed prompts, thoughts, answers, finished tool calls", () => {
    expect(replayItems(KODO_LOG, describeCall)).toEqual([
      { kind: 'user', text: 'what does main do?' },
      { kind: 'thought', text: 'checking the entry point' },
      { kind: 'model', text: 'Let me look.' },
      {
        kind: 'tool',
        call: {
          callId: 'c1',
          name: 'read_file',
          displayName: 'ReadFile',
          description: 'src/main.ts',
          status: 'success',
          resultDisplay: 'Read 12 lines',
        },
      },
      { kind: 'model', text: 'It starts the server.' },
      { kind: 'info', tone: 'warning', text: 'Loop detected' },
    ]);
  });

  it("reads Gemini CLI's logs, whose model messages carry their calls and results", () => {
    const items = replayItems(
      [
        { id: 'g1', timestamp: at, type: 'user', content: 'list files' },
        {
          id: 'g2',
          timestamp: at,
          type: 'gemini',
          content: 'Here they are.',
          toolCalls: [{ id: 't1', name: 'list_directory', args: { dir_path: '.' }, status: 'error' }],
        },
      ],
      describeCall,
    );
    expect(items).toEqual([
      { kind: 'user', text: 'list files' },
      { kind: 'model', text: 'Here they are.' },
      {
        kind: 'tool',
        call: {
          callId: 't1',
          name: 'list_directory',
          displayName: 'list_directory',
          description: '',
          status: 'error',
        },
      },
    ]);
  });

  it("pairs results with Gemini's id-less calls by order, so a resumed Gemini session keeps each outcome", () => {
    // Gemini's functionCall parts carry no id; kodo makes one up for the call and records it on
    // the result only, so the log's call and result share no id.
    const items = replayItems(
      [
        { id: 'u1', timestamp: at, type: 'user', content: 'list twice' },
        {
          id: 'm1',
          timestamp: at,
          type: 'gemini',
          content: [
            { functionCall: { name: 'run_shell_command', args: { command: 'ls -la' } } },
            { functionCall: { name: 'read_file', args: { file_path: 'a.txt' } } },
            { functionCall: { name: 'run_shell_command', args: { command: 'false' } } },
          ],
        },
        {
          id: 'u2',
          timestamp: at,
          type: 'user',
          content: [
            { functionResponse: { name: 'run_shell_command', response: { output: 'total 0' } } },
            { functionResponse: { name: 'read_file', response: { output: 'a' } } },
            { functionResponse: { name: 'run_shell_command', response: { error: 'exit 1' } } },
          ],
          toolResults: [
            { id: 'run_shell_command_1764460800000_0', name: 'run_shell_command', status: 'success' },
            { id: 'read_file_1764460800000_1', name: 'read_file', status: 'success' },
            { id: 'run_shell_command_1764460800000_2', name: 'run_shell_command', status: 'error' },
          ],
        },
      ],
      describeCall,
    );
    const calls = items.flatMap((item) => (item.kind === 'tool' ? [item.call] : []));
    expect(calls.map((call) => [call.name, call.status])).toEqual([
      ['run_shell_command', 'success'],
      ['read_file', 'success'],
      ['run_shell_command', 'error'],
    ]);
  });

  it('leaves a call without a recorded result cancelled, and never gives one result to two calls', () => {
    const items = replayItems(
      [
        {
          id: 'm1',
          timestamp: at,
          type: 'gemini',
          content: [
            { functionCall: { name: 'run_shell_command', args: { command: 'a' } } },
            { functionCall: { name: 'run_shell_command', args: { command: 'b' } } },
          ],
        },
        {
          id: 'u2',
          timestamp: at,
          type: 'user',
          content: [{ functionResponse: { name: 'run_shell_command', response: { output: '' } } }],
          toolResults: [{ id: 'x_0', name: 'run_shell_command', status: 'success' }],
        },
      ],
      describeCall,
    );
    const calls = items.flatMap((item) => (item.kind === 'tool' ? [item.call.status] : []));
    expect(calls).toEqual(['success', 'cancelled']);
  });

  it('tells how each call of a log without result summaries ended from its response (an imported session)', () => {
    const items = replayItems(
      [
        {
          id: 'm1',
          timestamp: at,
          type: 'gemini',
          content: [
            { functionCall: { id: 'a', name: 'read_file', args: { file_path: 'a' } } },
            { functionCall: { id: 'b', name: 'run_shell_command', args: { command: 'false' } } },
            { functionCall: { id: 'c', name: 'run_shell_command', args: { command: 'sleep 9' } } },
          ],
        },
        {
          id: 'u2',
          timestamp: at,
          type: 'user',
          content: [
            { functionResponse: { id: 'a', name: 'read_file', response: { output: 'x' } } },
            { functionResponse: { id: 'b', name: 'run_shell_command', response: { error: 'Exit code 1' } } },
            {
              functionResponse: {
                id: 'c',
                name: 'run_shell_command',
                response: { error: '[Operation Cancelled] Reason: kodo stopped before the result.' },
              },
            },
          ],
        },
      ],
      describeCall,
    );
    const calls = items.flatMap((item) => (item.kind === 'tool' ? [item.call.status] : []));
    expect(calls).toEqual(['success', 'error', 'cancelled']);
  });

  it('draws only the newest messages of a very long session, and says so', () => {
    const many: MessageRecord[] = Array.from({ length: 250 }, (_, index) => ({
      id: `u${index}`,
      timestamp: at,
      type: 'user',
      content: `prompt ${index}`,
    }));
    const items = replayItems(many, describeCall);
    expect(items[0]).toEqual({
      kind: 'info',
      tone: 'info',
      text: '50 earlier messages of this session are not shown.',
    });
    expect(items).toHaveLength(201);
    expect(items.at(-1)).toEqual({ kind: 'user', text: 'prompt 249' });
  });
});

describe('the App with a resumed session', () => {
  it('shows the recorded conversation above the prompt', () => {
    const ui = renderApp({ resumedMessages: KODO_LOG });
    const frame = ui.lastFrame() ?? '';
    expect(frame).toContain('what does main do?');
    expect(frame).not.toContain('Some context');
    expect(frame).toContain('Let me look.');
    expect(frame).toContain('src/main.ts');
    expect(frame).toContain('It starts the server.');
    ui.cleanup();
  });
});
