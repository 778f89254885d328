import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Chat } from '../../src/agent/chat';
import { DEFAULT_RETRY_POLICY } from '../../src/agent/retry';
import { ChatCompressor, DEFAULT_COMPRESSION, findSplitPoint } from '../../src/context/compression';
import { SUMMARY_ACK } from '../../src/context/compression-prompt';
import { isMasked, maskOldToolOutputs, preview } from '../../src/context/masking';
import { estimateContentTokens, estimateTextTokens } from '../../src/context/tokens';
import type { Content } from '../../src/contracts/messages';
import { FakeContentGenerator, type RecordedCall } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { collect, ofType, stream, tempContext, text } from '../helpers';

const user = (t: string): Content => ({ role: 'user', parts: [{ text: t }] });
const model = (t: string): Content => ({ role: 'model', parts: [{ text: t }] });
const unary = (t: string): RecordedCall => ({
  method: 'generateContent',
  response: { candidates: [{ content: { role: 'model', parts: [{ text: t }] }, finishReason: 'STOP' }] },
});
const snapshot = (goal: string) =>
  `scratchpad…\n<state_snapshot><overall_goal>${goal}</overall_goal></state_snapshot>`;

function longHistory(turns: number): Content[] {
  const history: Content[] = [];
  for (let i = 0; i < turns; i += 1) {
    history.push(user(`question ${i} ${'x'.repeat(400)}`), model(`answer ${i} ${'y'.repeat(400)}`));
  }
  return history;
}

describe('token estimates', () => {
  it('counts ASCII at 4 characters a token and other scripts at 1.5 tokens a character', () => {
    expect(estimateTextTokens('abcd'.repeat(10))).toBe(10);
    expect(estimateTextTokens('日本語')).toBe(4.5);
    expect(
      estimateContentTokens([{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: '' } }] }]),
    ).toBe(3000);
  });
});

describe('findSplitPoint', () => {
  it('keeps about the newest 30% starting at a plain user turn', () => {
    const history = longHistory(10);
    const split = findSplitPoint(history);
    expect(history[split]!.role).toBe('user');
    expect(split).toBe(14);
  });

  it('never splits a function call from its response', () => {
    const history: Content[] = [
      user('start'),
      { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: 'a' } } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'read_file', response: { output: 'z'.repeat(5000) } } }],
      },
      { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: 'b' } } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'read_file', response: { output: 'z'.repeat(5000) } } }],
      },
    ];
    const split = findSplitPoint(history);
    expect(split).toBe(0);
  });
});

describe('ChatCompressor', () => {
  const makeChat = (history: Content[], responses: RecordedCall[]) => {
    const generator = new FakeContentGenerator(responses, { strict: true });
    const chat = new Chat({ generator, model: 'gemini-2.5-pro', retry: DEFAULT_RETRY_POLICY, history });
    const compressor = new ChatCompressor(generator, {
      ...DEFAULT_COMPRESSION,
      contextWindow: () => 10_000,
      outputLimit: { thresholdChars: 40_000, spillDir: undefined },
    });
    return { chat, compressor, generator };
  };
  const run = (compressor: ChatCompressor, chat: Chat, trigger: 'auto' | 'manual' = 'manual') =>
    compressor.compress(chat, { trigger, signal: new AbortController().signal, promptId: 'p' });

  it('summarises the older history, keeps the newest verbatim, verifies the summary', async () => {
    const history = longHistory(10);
    const { chat, compressor, generator } = makeChat(history, [
      unary(snapshot('draft')),
      unary(snapshot('final')),
    ]);
    const result = await run(compressor, chat);
    expect(result.status).toBe('compressed');
    expect(result.newTokens).toBeLessThan(result.originalTokens);
    const after = chat.getHistory();
    expect(after[0]!.parts.at(-1)!.text).toBe(
      '<state_snapshot><overall_goal>final</overall_goal></state_snapshot>',
    );
    expect(after[1]).toEqual(model(SUMMARY_ACK));
    expect(after.slice(2)).toEqual(history.slice(14));
    expect(generator.unconsumed).toBe(0);
  });

  it('keeps the draft when the verification comes back empty, and reports an empty summary as a failure', async () => {
    const first = makeChat(longHistory(10), [unary(snapshot('draft')), unary('')]);
    expect((await run(first.compressor, first.chat)).status).toBe('compressed');
    expect(first.chat.getHistory()[0]!.parts.at(-1)!.text).toContain('draft');
    const empty = makeChat(longHistory(10), [unary('')]);
    expect((await run(empty.compressor, empty.chat)).status).toBe('failed_empty_summary');
    expect(empty.chat.getHistory()).toEqual(longHistory(10));
  });

  it('refuses a summary that inflates the history; later automatic attempts only truncate', async () => {
    const history = longHistory(3);
    const huge = `<state_snapshot>${'w'.repeat(50_000)}</state_snapshot>`;
    const { chat, compressor } = makeChat(history, [unary(huge), unary(huge)]);
    expect((await run(compressor, chat, 'auto')).status).toBe('failed_inflated');
    expect(chat.getHistory()).toEqual(history);
    // No model call this time: the script is empty, so a call would throw.
    expect((await run(compressor, chat, 'auto')).status).toBe('noop');
  });

  it('says noop without copying or cutting anything when one prompt is followed only by tool turns', async () => {
    const { root } = tempContext();
    const history: Content[] = [user('go')];
    for (let i = 0; i < 6; i += 1) {
      history.push(
        { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: `f${i}` } } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'read_file', response: { output: 'z'.repeat(400_000) } } }],
        },
      );
    }
    const generator = new FakeContentGenerator([], { strict: true });
    const chat = new Chat({ generator, model: 'gemini-2.5-pro', retry: DEFAULT_RETRY_POLICY, history });
    const spillDir = join(root, 'spill');
    const compressor = new ChatCompressor(generator, {
      ...DEFAULT_COMPRESSION,
      contextWindow: () => 10_000,
      outputLimit: { thresholdChars: 1_000, spillDir },
    });
    expect((await run(compressor, chat, 'auto')).status).toBe('noop');
    // Cutting the old responses (which saves their full text) would be wasted work: nothing to split.
    expect(existsSync(spillDir)).toBe(false);
    expect(chat.getHistory()).toEqual(history);
  });

  it('says noop for an empty history', async () => {
    const { chat, compressor } = makeChat([], []);
    expect((await run(compressor, chat)).status).toBe('noop');
  });

  it('compresses automatically past the threshold, with a ChatCompressed event', async () => {
    const { ctx } = tempContext();
    const big = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const generator = new FakeContentGenerator(
      [
        stream({ ...text(`first ${big}`), usageMetadata: { promptTokenCount: 100 } }),
        stream({ ...text(`second ${big}`), usageMetadata: { promptTokenCount: 800_000 } }),
        unary(snapshot('s')),
        unary(snapshot('s2')),
        stream(text('third')),
      ],
      { strict: true },
    );
    const session = new Session({
      generator,
      model: 'gemini-2.5-pro',
      tools: new ToolRegistry([]),
      toolContext: ctx,
      includeEnvironmentContext: false,
    });
    for (const prompt of ['one', 'two', 'three']) {
      const { events } = await collect(session.sendMessage(`${prompt} ${big}`, new AbortController().signal));
      if (prompt === 'three') expect(ofType(events, 'chat_compressed')[0]?.status).toBe('compressed');
    }
    expect(generator.unconsumed).toBe(0);
  });
});

describe('overflow', () => {
  it('does not send a request that cannot fit the window', async () => {
    const { ctx } = tempContext();
    const generator = new FakeContentGenerator(
      [stream({ ...text('ok'), usageMetadata: { promptTokenCount: 1_000_000 } })],
      {
        strict: true,
      },
    );
    const session = new Session({
      generator,
      model: 'gemini-2.5-pro',
      tools: new ToolRegistry([]),
      toolContext: ctx,
      includeEnvironmentContext: false,
      compressionThreshold: 1,
    });
    await collect(session.sendMessage('hi', new AbortController().signal));
    const { events, result } = await collect(
      session.sendMessage('z'.repeat(400_000), new AbortController().signal),
    );
    expect(result.kind).toBe('context_overflow');
    expect(ofType(events, 'context_window_will_overflow')[0]).toMatchObject({ estimatedTokens: 100_000 });
  });
});

describe('tool-output masking', () => {
  const responseTurn = (i: number, size: number): Content[] => [
    {
      role: 'model',
      parts: [{ functionCall: { name: 'read_file', args: { file_path: `f${i}` }, id: `c${i}` } }],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'read_file', id: `c${i}`, response: { output: 'q'.repeat(size) } } },
      ],
    },
  ];

  it('masks old bulky outputs, keeps the newest 50k tokens and saves the full text', async () => {
    const { root } = tempContext();
    const history: Content[] = [user('go')];
    for (let i = 0; i < 10; i += 1) history.push(...responseTurn(i, 40_000)); // 10k tokens each
    history.push(model('done'));
    const result = await maskOldToolOutputs(history, {
      protectedTokens: 50_000,
      minPrunableTokens: 30_000,
      spillDir: root,
      sessionId: 's',
    });
    // The newest outputs up to 50k tokens stay; the one crossing that line and all older are masked.
    expect(result.maskedCount).toBe(6);
    const outputs = result.history
      .flatMap((c) => c.parts)
      .flatMap((p) => (p.functionResponse ? [String(p.functionResponse.response.output)] : []));
    expect(outputs.slice(0, 6).every((o) => o.startsWith('<tool_output_masked>'))).toBe(true);
    expect(outputs.slice(6).every((o) => o === 'q'.repeat(40_000))).toBe(true);
    const file = /Full output available at: (\S+)/.exec(outputs[0]!)![1]!;
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ output: 'q'.repeat(40_000) });
    expect(file.startsWith(join(root, 'tool-outputs'))).toBe(true);
  });

  it('copies only the entries it masks: the rest are shared and the input stays as it was', async () => {
    const { root } = tempContext();
    const history: Content[] = [user('go')];
    for (let i = 0; i < 10; i += 1) history.push(...responseTurn(i, 40_000));
    history.push(model('done'));
    const before = structuredClone(history);
    const result = await maskOldToolOutputs(history, {
      protectedTokens: 50_000,
      minPrunableTokens: 30_000,
      spillDir: root,
      sessionId: 's',
    });
    expect(history).toEqual(before);
    const changed = result.history.filter((content, index) => content !== history[index]);
    expect(changed).toHaveLength(result.maskedCount);
    expect(changed.every((content) => content.parts.every((part) => isMasked(part)))).toBe(true);
  });

  it('leaves small histories alone', async () => {
    const { root } = tempContext();
    const history: Content[] = [user('go'), ...responseTurn(0, 1000), model('done')];
    expect(
      (
        await maskOldToolOutputs(history, {
          protectedTokens: 50_000,
          minPrunableTokens: 30_000,
          spillDir: root,
          sessionId: 's',
        })
      ).maskedCount,
    ).toBe(0);
  });

  it('previews shell output by its first and last lines', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const text = `Output: ${lines.join('\n')}\nExit Code: 2`;
    const shown = preview('run_shell_command', text);
    expect(shown).toContain('line 9\n\n... [10 lines omitted] ...\n\nline 20');
    expect(shown.endsWith('Exit Code: 2')).toBe(true);
    expect(preview('read_file', 'a'.repeat(600))).toBe(
      `${'a'.repeat(250)}\n... [TRUNCATED] ...\n${'a'.repeat(250)}`,
    );
  });
});
