/**
 * The UI benchmark's harness (bench/ui/): the peers' mocks answer the prompt with the long answer
 * and anything else (Codex's title request) with a short one; a peer's screen is read through the
 * emulator even when its renderer writes only changed cells; closing a terminal ends the whole
 * process tree, helpers that ignore the hang-up included. No timing is asserted.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { servePeerAnswer, startPeerMock } from '../../../../bench/ui/peers';
import { childPid, openTerminal, processTree, type Terminal } from '../../../../bench/ui/pty-terminal';
import { screenReader } from '../../../../bench/ui/readers';

const PROMPT = 'stream a long answer';

async function postEvents(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe('servePeerAnswer', () => {
  it('streams the answer to the Anthropic request whose last user message is the prompt', async () => {
    const mock = await startPeerMock('anthropic');
    try {
      const served = servePeerAnswer(mock, 'anthropic', PROMPT, ['one ', 'two ', 'three'], 0);
      const headers = { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' };
      const url = `${mock.url}/v1/messages`;
      const side = await postEvents(
        url,
        { model: 'm', stream: true, messages: [{ role: 'user', content: `Title for: ${PROMPT}` }] },
        headers,
      );
      expect(side.filter((e) => e.type === 'content_block_delta')).toHaveLength(1);
      expect(served.request()).toBeUndefined();
      // Claude Code's shape: reminders before the prompt, a system message after it.
      const messages = [
        {
          role: 'user',
          content: [
            { type: 'text', text: '<system-reminder>x</system-reminder>' },
            { type: 'text', text: PROMPT },
          ],
        },
        { role: 'system', content: [{ type: 'text', text: '# Environment' }] },
      ];
      const events = await postEvents(url, { model: 'm', stream: true, messages }, headers);
      const text = events
        .filter((e) => e.type === 'content_block_delta')
        .map((e) => (e.delta as { text: string }).text);
      expect(text.join('')).toBe('one two three');
      expect(served.request()).toBe(mock.requests[1]);
      expect((events[served.firstText]!.delta as { text: string }).text).toBe('one ');
      expect((events[served.lastText]!.delta as { text: string }).text).toBe('three');
    } finally {
      await mock.close();
    }
  });

  it('gives a Responses request for a title a short answer, the prompt the long one', async () => {
    const mock = await startPeerMock('openai-responses');
    try {
      const served = servePeerAnswer(mock, 'openai-responses', PROMPT, ['a', 'b'], 0);
      const user = (text: string) => ({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text }],
      });
      const url = `${mock.url}/responses`;
      const main = await postEvents(url, { model: 'm', stream: true, input: [user(PROMPT)] });
      const title = await postEvents(url, {
        model: 'm',
        stream: true,
        input: [user(PROMPT), user(`Generate a concise title for: ${PROMPT}`)],
      });
      const deltas = (events: Record<string, unknown>[]) =>
        events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta);
      expect(deltas(main)).toEqual(['a', 'b']);
      expect(deltas(title)).toEqual(['Bench title']);
      expect(served.request()).toBe(mock.requests[0]);
      expect(main[served.firstText]!.delta).toBe('a');
      expect(main[served.lastText]!.delta).toBe('b');
    } finally {
      await mock.close();
    }
  });
});

describe('the pty terminal', () => {
  let terminal: Terminal | undefined;
  afterEach(async () => {
    await terminal?.close();
    terminal = undefined;
  });

  it("reads a cell-diffing renderer's prompt, answer and typed keys from the emulated screen", async () => {
    // Like Claude Code's and Codex's renderers: blank cells skipped with cursor moves, one new
    // character per key; the typed keys and the words are never contiguous in the bytes.
    const frames = [
      String.raw`\033[?1049h\033[2J\033[40;1H› \033[7m \033[27m`,
      String.raw`\033[3;1HSection\033[9G3:\033[12Greading`,
      String.raw`\033[40;3Hz\033[7m \033[27m`,
      String.raw`\033[40;4Hq\033[7m \033[27m`,
    ];
    const script = frames.map((frame) => `printf '${frame}'; sleep 0.2`).join('; ');
    terminal = openTerminal(
      `sh -c "${script}; sleep 30"`,
      { PATH: process.env.PATH ?? '' },
      {
        columns: 120,
        rows: 40,
        emulate: true,
      },
    );
    const reader = screenReader('›');
    await reader.ready(terminal);
    await reader.firstToken(terminal, 0);
    await reader.keyEcho(terminal, 'zq', 0);
    expect(reader.keysArrived(terminal, 'zq', 0)).toBe(true);
    expect(reader.keysArrived(terminal, 'qz', 0)).toBe(false);
    expect(terminal.output()).not.toContain('zq');
    expect(terminal.output()).not.toContain('Section 3');
  });

  it('ends the whole process tree on close, helpers that ignore the hang-up included', async () => {
    terminal = openTerminal(
      `sh -c 'trap "" HUP; (trap "" HUP; sleep 30) & sleep 30'`,
      { PATH: process.env.PATH ?? '' },
      { emulate: false },
    );
    let tree: number[] = [];
    for (let attempt = 0; attempt < 100 && tree.length < 3; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const program = childPid(terminal.child.pid!);
      tree = program ? processTree(program) : [];
    }
    expect(tree.length).toBeGreaterThanOrEqual(3);
    await terminal.close();
    terminal = undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const alive = tree.filter((pid) => {
      try {
        process.kill(pid, 0);
        // A zombie has ended; only its parent has not collected it yet.
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') !== true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });
});
