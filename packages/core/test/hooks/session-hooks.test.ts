import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import type { HooksSettings } from '../../src/hooks/types';
import { FakeContentGenerator } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, ofType, stream, tempContext, testTools, text } from '../helpers';
import { answer, logInput, makeHooks, readInputs } from './helpers';

/** The fake model, remembering every request it was sent. */
class Recording implements ContentGenerator {
  readonly provider = 'fake';
  readonly requests: GenerateRequest[] = [];
  constructor(readonly inner: FakeContentGenerator) {}
  generateContent(request: GenerateRequest, signal: AbortSignal) {
    return this.inner.generateContent(request, signal);
  }
  countTokens(request: GenerateRequest, signal: AbortSignal) {
    return this.inner.countTokens(request, signal);
  }
  generateContentStream(request: GenerateRequest, signal: AbortSignal) {
    this.requests.push(structuredClone(request));
    return this.inner.generateContentStream(request, signal);
  }
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(
  settings: HooksSettings,
  script: GenerateResponse[][],
  options: { approvalMode?: 'yolo' | 'default' } = {},
) {
  const { ctx, root, cleanup } = tempContext();
  cleanups.push(cleanup);
  const test = makeHooks(settings, { dir: root });
  const log: string[] = [];
  const generator = new Recording(
    new FakeContentGenerator(
      script.map((chunks) => stream(...chunks)),
      { strict: true },
    ),
  );
  const session = new Session({
    generator,
    model: 'test-model',
    tools: new ToolRegistry(testTools(log)),
    toolContext: ctx,
    approvalMode: options.approvalMode ?? 'yolo',
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    hooks: test.hooks,
  });
  return { session, generator, log, dir: root, feedback: test.feedback, hooks: test.hooks };
}

const run = (session: Session, prompt = 'go') =>
  collect(session.sendMessage(prompt, new AbortController().signal));
const hook = (command: string, extra: Record<string, unknown> = {}) => [
  { ...extra, hooks: [{ type: 'command' as const, command }] },
];
const userTexts = (request: GenerateRequest) =>
  request.contents.filter((c) => c.role === 'user').flatMap((c) => c.parts.map((p) => p.text ?? ''));

describe('agent hooks in the session', () => {
  it('BeforeAgent: added context is appended to the prompt, once per prompt', async () => {
    const { session, generator, dir } = setup(
      {
        BeforeAgent: hook(
          logInput('in.jsonl', answer({ hookSpecificOutput: { additionalContext: 'branch <main>' } })),
        ),
      },
      [[calls({ name: 'echo', args: { value: 'x' } })], [text('Done.')]],
    );
    const { result } = await run(session, 'do it');
    expect(result).toEqual({ kind: 'completed', text: 'Done.' });
    expect(generator.requests[0]!.contents[0]!.parts).toEqual([
      { text: 'do it' },
      { text: '<hook_context>branch &lt;main&gt;</hook_context>' },
    ]);
    // The tool round-trip belongs to the same prompt: BeforeAgent ran once.
    expect(readInputs(dir, 'in.jsonl').map((input) => input.prompt)).toEqual(['do it']);
  });

  it('BeforeAgent: deny drops the prompt; continue:false keeps it; no model call either way', async () => {
    const denied = setup({ BeforeAgent: hook(answer({ decision: 'deny', reason: 'Not today' })) }, []);
    const { events, result } = await run(denied.session, 'secret stuff');
    expect(result).toEqual({ kind: 'blocked_by_hook', reason: 'Not today', text: '' });
    expect(ofType(events, 'agent_execution_blocked')).toEqual([
      { type: 'agent_execution_blocked', reason: 'Not today' },
    ]);
    expect(denied.session.history()).toEqual([]);

    const stopped = setup({ BeforeAgent: hook(answer({ continue: false, stopReason: 'Maintenance' })) }, []);
    const second = await run(stopped.session, 'hello');
    expect(ofType(second.events, 'agent_execution_stopped')).toEqual([
      { type: 'agent_execution_stopped', reason: 'Maintenance' },
    ]);
    expect(stopped.session.history()).toEqual([{ role: 'user', parts: [{ text: 'hello' }] }]);
  });

  it('AfterAgent: a deny re-prompts with the reason, stop_hook_active true the second time', async () => {
    const script = `cat >> in.jsonl; if grep -q '"stop_hook_active":true' <(tail -n1 in.jsonl); then echo '{}'; else echo '{"decision":"deny","reason":"Also say goodbye."}'; fi`;
    const { session, generator, dir } = setup({ AfterAgent: hook(script) }, [
      [calls({ name: 'echo', args: { value: 'x' } })],
      [text('Hello.')],
      [text('Goodbye.')],
    ]);
    const { events, result } = await run(session, 'greet');
    expect(result).toEqual({ kind: 'completed', text: 'Goodbye.' });
    expect(generator.requests).toHaveLength(3);
    expect(userTexts(generator.requests[2]!).at(-1)).toBe('Also say goodbye.');
    expect(ofType(events, 'agent_execution_blocked').map((e) => e.reason)).toEqual(['Also say goodbye.']);
    const inputs = readInputs(dir, 'in.jsonl');
    expect(inputs.map((input) => [input.prompt, input.prompt_response, input.stop_hook_active])).toEqual([
      ['greet', 'Hello.', false],
      ['greet', 'Goodbye.', true],
    ]);
  });

  it('AfterAgent: a hook that always denies is stopped after the retry limit', async () => {
    const script = Array.from({ length: 6 }, (_, i) => [text(`answer ${i}`)]);
    const { session, generator, feedback } = setup(
      { AfterAgent: hook(answer({ decision: 'deny', reason: 'again' })) },
      script,
    );
    const { result } = await run(session);
    expect(result).toEqual({ kind: 'completed', text: 'answer 5' });
    expect(generator.requests).toHaveLength(6);
    expect(feedback.at(-1)?.message).toContain('rejected 5 answers in a row');
  });

  it('AfterAgent: continue:false reports a stop; clearContext empties the history', async () => {
    const { session, events } = await (async () => {
      const made = setup(
        {
          AfterAgent: hook(
            answer({
              continue: false,
              systemMessage: 'Budget used up',
              hookSpecificOutput: { clearContext: true },
            }),
          ),
        },
        [[text('Hi.')]],
      );
      return { session: made.session, ...(await run(made.session)) };
    })();
    expect(ofType(events, 'agent_execution_stopped')).toEqual([
      { type: 'agent_execution_stopped', reason: 'Budget used up' },
    ]);
    expect(session.history()).toEqual([]);
  });

  it('SessionStart gives a context block; end() waits for SessionEnd', async () => {
    const { session, dir } = setup(
      {
        SessionStart: hook(answer({ hookSpecificOutput: { additionalContext: 'Project rules: be nice' } }), {
          matcher: 'startup',
        }),
        SessionEnd: hook(`sleep 0.1; ${logInput('end.jsonl')}`),
      },
      [],
    );
    expect(await session.start('resume')).toEqual({});
    expect(await session.start('startup')).toEqual({
      context: '<hook_context>Project rules: be nice</hook_context>',
    });
    await session.end('exit');
    expect(readInputs(dir, 'end.jsonl').map((input) => input.reason)).toEqual(['exit']);
  });

  it('SessionStart context is context in every front end: its own part ahead of the prompt, which stays as typed', async () => {
    const { session, generator, dir } = setup(
      {
        SessionStart: hook(answer({ hookSpecificOutput: { additionalContext: 'Team rule' } })),
        BeforeAgent: hook(logInput('before.jsonl')),
      },
      [[text('Hi.')]],
    );
    // What every front end calls (headless, terminal, ACP; docs/architecture.md, "Input").
    expect(await session.start('startup')).toEqual({ context: '<hook_context>Team rule</hook_context>' });
    await run(session, 'hi');
    expect(generator.requests[0]!.contents).toEqual([
      { role: 'user', parts: [{ text: '<hook_context>Team rule</hook_context>' }, { text: 'hi' }] },
    ]);
    // BeforeAgent (UserPromptSubmit) saw the prompt as typed, not the hook's text.
    expect(readInputs(dir, 'before.jsonl').map((input) => input.prompt)).toEqual(['hi']);
  });
});

describe('model hooks in the session', () => {
  it('BeforeModel: a synthetic answer skips the model and joins the history', async () => {
    const { session, generator } = setup(
      { BeforeModel: hook(answer({ hookSpecificOutput: { llm_response: { text: 'From cache.' } } })) },
      [],
    );
    const { result, events } = await run(session);
    expect(result).toEqual({ kind: 'completed', text: 'From cache.' });
    expect(generator.requests).toHaveLength(0);
    expect(ofType(events, 'content').map((e) => e.text)).toEqual(['From cache.']);
    expect(session.history().at(-1)).toEqual({ role: 'model', parts: [{ text: 'From cache.' }] });
  });

  it('BeforeModel: rewrites model, config and message text for the call', async () => {
    const { session, generator } = setup(
      {
        BeforeModel: hook(
          answer({
            hookSpecificOutput: {
              llm_request: {
                model: 'other-model',
                config: { temperature: 0 },
                messages: [{ role: 'user', content: 'rewritten' }],
              },
            },
          }),
        ),
      },
      [[text('ok')]],
    );
    await run(session, 'original');
    const sent = generator.requests[0]!;
    expect(sent.model).toBe('other-model');
    // kodo's own fields (the prompt-cache key) stay; the hook rewrote the sampling.
    expect(sent.config).toEqual({ temperature: 0, cacheKey: expect.any(String) });
    expect(userTexts(sent)).toEqual(['rewritten']);
    // Only the call changed: the history keeps what the person wrote, the session its model.
    expect(session.history()[0]).toEqual({ role: 'user', parts: [{ text: 'original' }] });
    expect(session.model).toBe('test-model');
  });

  it('BeforeModel: deny blocks the call without counting an API error', async () => {
    const { session, generator } = setup({ BeforeModel: hook('echo "model calls are off" >&2; exit 2') }, []);
    const { result, events } = await run(session);
    expect(result).toEqual({ kind: 'blocked_by_hook', reason: 'model calls are off', text: '' });
    expect(generator.requests).toHaveLength(0);
    expect(ofType(events, 'agent_execution_blocked')).toEqual([
      { type: 'agent_execution_blocked', reason: 'model calls are off' },
    ]);
    expect(ofType(events, 'error')).toEqual([]);
    expect(ofType(events, 'finished')).toEqual([]);
    expect(session.statsSnapshot().models['test-model']?.api.totalErrors ?? 0).toBe(0);
  });

  it('AfterModel: replaces chunks in what the person sees and what the history keeps', async () => {
    const redact = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s).llm_response;const t=r.candidates.map(c=>({...c,content:{role:"model",parts:c.content.parts.map(p=>p.replace(/[0-9]/g,"#"))}}));process.stdout.write(JSON.stringify({hookSpecificOutput:{llm_response:{candidates:t}}}))})'`;
    const { session } = setup({ AfterModel: hook(redact) }, [[text('PIN 1234'), text(' ok 5')]]);
    const { result, events } = await run(session);
    expect(ofType(events, 'content').map((e) => e.text)).toEqual(['PIN ####', ' ok #']);
    expect(result.text).toBe('PIN #### ok #');
    expect(session.history().at(-1)).toEqual({ role: 'model', parts: [{ text: 'PIN #### ok #' }] });
  });

  it('AfterModel: continue:false stops the agent and drops the tool calls of the turn', async () => {
    const { session, log } = setup(
      { AfterModel: hook(answer({ continue: false, stopReason: 'Too expensive' })) },
      [[calls({ name: 'echo', args: { value: 'x' } })]],
    );
    const { result, events } = await run(session);
    expect(result.kind).toBe('halted_by_hook');
    expect(ofType(events, 'agent_execution_stopped')).toEqual([
      { type: 'agent_execution_stopped', reason: 'Too expensive' },
    ]);
    expect(log).toEqual([]);
  });

  it('BeforeToolSelection: NONE sends no tools; PreCompress fires before checks with history', async () => {
    const { session, generator, dir, hooks } = setup(
      {
        BeforeToolSelection: hook(answer({ hookSpecificOutput: { toolConfig: { mode: 'NONE' } } })),
        PreCompress: hook(logInput('pc.jsonl')),
      },
      [[text('one')], [text('two')]],
    );
    await run(session);
    expect(generator.requests[0]!.tools).toBeUndefined();
    await run(session);
    await hooks.settle();
    // The first request had no history yet; the second did.
    expect(readInputs(dir, 'pc.jsonl').map((input) => input.trigger)).toEqual(['auto']);
  });

  it('PreCompress auto fires before every request with history, tool round-trips included', async () => {
    const { session, dir, hooks } = setup({ PreCompress: hook(logInput('pc.jsonl')) }, [
      [calls({ name: 'echo', args: { value: 'x' } })],
      [text('one')],
      [text('two')],
    ]);
    await run(session);
    await run(session);
    await hooks.settle();
    // Request 1: empty history (no hook). Request 2 (the tool's answer) and request 3: with history.
    expect(readInputs(dir, 'pc.jsonl').map((input) => input.trigger)).toEqual(['auto', 'auto']);
  });

  it('a compression waits for PreCompress; a request without one does not; /compress of nothing fires none', async () => {
    const { ctx, root, cleanup } = tempContext();
    cleanups.push(cleanup);
    // The hook waits for `release`, then writes its input. A request that waited for it would
    // hang until released; a compression must find the input already written.
    const slow = hook(`while [ ! -f release ]; do sleep 0.02; done; ${logInput('pc.jsonl')}`);
    const test = makeHooks({ PreCompress: slow }, { dir: root });
    const big = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const unary = (value: string) => ({ method: 'generateContent' as const, response: text(value) });
    const snapshot = '<state_snapshot><overall_goal>g</overall_goal></state_snapshot>';
    const seen: number[] = [];
    const generator = new FakeContentGenerator(
      [
        stream({ ...text(`first ${big}`), usageMetadata: { promptTokenCount: 100 } }),
        stream({ ...text(`second ${big}`), usageMetadata: { promptTokenCount: 800_000 } }),
        unary(snapshot),
        unary(snapshot),
        stream(text('third')),
      ],
      { strict: true },
    );
    const watching: ContentGenerator = {
      provider: 'fake',
      generateContent: (request, signal) => {
        seen.push(readInputs(root, 'pc.jsonl').length);
        return generator.generateContent(request, signal);
      },
      countTokens: (request, signal) => generator.countTokens(request, signal),
      generateContentStream: (request, signal) => generator.generateContentStream(request, signal),
    };
    const session = new Session({
      generator: watching,
      model: 'gemini-2.5-pro',
      tools: new ToolRegistry([]),
      toolContext: ctx,
      includeEnvironmentContext: false,
      hooks: test.hooks,
    });
    const empty = await session.compress(new AbortController().signal);
    expect(empty.status).toBe('noop');
    await run(session, `one ${big}`);
    // No compression due: the request goes out while the hook is still waiting.
    await run(session, `two ${big}`);
    expect(readInputs(root, 'pc.jsonl')).toEqual([]);
    writeFileSync(join(root, 'release'), '');
    await test.hooks.settle();
    const { events } = await run(session, `three ${big}`);
    expect(ofType(events, 'chat_compressed')[0]?.status).toBe('compressed');
    // The summary call came after the hook of this check had written its input (2nd: this one).
    expect(seen[0]).toBe(2);
    await test.hooks.settle();
    expect(readInputs(root, 'pc.jsonl').map((input) => input.trigger)).toEqual(['auto', 'auto']);
  });
});
