/**
 * The compact tool profile and the discovered context window, seen on the requests a session
 * sends: `tools.profile: "compact"` declares seven short tools and a short system prompt (the
 * first request's estimate well under 2,000 tokens, against ~5,000 for the full profile); unset,
 * the profile follows the window the server reported (≤ 8k → compact), which the session also
 * plans with (context usage, the overflow check). Every compact declaration stays callable: its
 * parameters are the full tool's own, and it keeps every required one.
 */
import { describe, expect, it } from 'vitest';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import type { ContextWindowSource } from '../../src/llm/context-windows';
import { estimateRequestTokens } from '../../src/llm/providers/context-guard';
import { Session } from '../../src/session/session';
import { COMPACT_TOOL_DECLARATIONS } from '../../src/tools/builtin/compact-specs';
import { lazyBuiltinTools } from '../../src/tools/builtin/declared';
import { BUILTIN_TOOL_SPECS } from '../../src/tools/builtin/specs.generated';
import { ToolRegistry } from '../../src/tools/registry';
import { collect, tempContext } from '../helpers';

const COMPACT_NAMES = [
  'read_file',
  'write_file',
  'replace',
  'list_directory',
  'glob',
  'grep_search',
  'run_shell_command',
];

class CapturingGenerator implements ContentGenerator {
  readonly provider = 'capture';
  readonly requests: GenerateRequest[] = [];
  /** One-shot calls (compression's summary). */
  oneShots = 0;
  constructor(private readonly promptTokens = 10) {}
  async generateContent(): Promise<GenerateResponse> {
    this.oneShots += 1;
    const text = '<state_snapshot>s</state_snapshot>';
    return { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }] };
  }
  async *generateContentStream(request: GenerateRequest): AsyncGenerator<GenerateResponse> {
    this.requests.push(request);
    yield {
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: this.promptTokens, candidatesTokenCount: 1 },
    };
  }
  async countTokens() {
    return { totalTokens: 0 };
  }
}

/** A source that knows `window` once asked (as the router knows after its probe). */
function windowsOf(window: number | undefined, delayMs = 0): ContextWindowSource & { asked: string[] } {
  let known: number | undefined;
  const asked: string[] = [];
  return {
    asked,
    known: () => known,
    discover: async (model) => {
      asked.push(model);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      known = window;
      return window;
    },
  };
}

function sessionWith(options: {
  toolProfile?: 'full' | 'compact';
  windows?: ContextWindowSource;
  promptTokens?: number;
}) {
  const generator = new CapturingGenerator(options.promptTokens);
  const { ctx } = tempContext();
  const session = new Session({
    generator,
    model: 'local:tiny',
    tools: new ToolRegistry(lazyBuiltinTools()),
    toolContext: ctx,
    approvalMode: 'yolo',
    includeEnvironmentContext: false,
    ...(options.toolProfile ? { toolProfile: options.toolProfile } : {}),
    ...(options.windows ? { contextWindows: options.windows } : {}),
  });
  return { session, generator };
}

const first = async (options: Parameters<typeof sessionWith>[0]) => {
  const { session, generator } = sessionWith(options);
  const { result } = await collect(session.sendMessage('fix the bug', new AbortController().signal));
  return { session, generator, result, request: generator.requests[0] };
};

const names = (request: GenerateRequest | undefined) => (request?.tools ?? []).map((tool) => tool.name);

describe('tool profiles', () => {
  it('full by default: every built-in tool and the full system prompt', async () => {
    const { request } = await first({});
    expect(names(request)).toEqual(expect.arrayContaining([...COMPACT_NAMES, 'web_fetch', 'write_todos']));
    expect(request?.systemInstruction).toContain('# How to work');
    expect(estimateRequestTokens(request!)).toBeGreaterThan(4_000);
  });

  it('compact: seven short tools and a short prompt, under 2,000 tokens by estimate', async () => {
    const { request } = await first({ toolProfile: 'compact' });
    expect(names(request)).toEqual(COMPACT_NAMES);
    expect(request?.systemInstruction).not.toContain('# How to work');
    expect(request?.systemInstruction).toContain('replace');
    const estimate = estimateRequestTokens(request!);
    expect(estimate).toBeLessThanOrEqual(1_500);
    const declared = JSON.stringify(request?.tools).length;
    expect(declared).toBeLessThan(3_500);
  });

  it('automatic: compact when the server reported ≤ 8k, asked before the first request', async () => {
    const small = windowsOf(4096, 20);
    const { request } = await first({ windows: small });
    expect(small.asked).toEqual(['local:tiny']);
    expect(names(request)).toEqual(COMPACT_NAMES);
    const large = await first({ windows: windowsOf(32768) });
    expect(names(large.request)).toContain('web_fetch');
    const unknown = await first({ windows: windowsOf(undefined) });
    expect(names(unknown.request)).toContain('web_fetch');
  });

  it('a setting wins over the window', async () => {
    const { request } = await first({ toolProfile: 'full', windows: windowsOf(4096) });
    expect(names(request)).toContain('web_fetch');
  });

  it('the discovered window is the one planned with: usage, compression, the overflow check', async () => {
    const signal = new AbortController().signal;
    const { session, generator } = await first({ windows: windowsOf(4096), promptTokens: 2048 });
    expect(session.contextWindow('local:tiny')).toBe(4096);
    expect(session.contextUsage()).toBe(0.5);
    // Half of the discovered window used: the next prompt compresses first.
    await collect(session.sendMessage('next', signal));
    expect(generator.oneShots).toBeGreaterThan(0);
    const unknown = await first({ promptTokens: 2048 });
    await collect(unknown.session.sendMessage('next', signal));
    expect(unknown.generator.oneShots).toBe(0);
    const small = await first({ windows: windowsOf(1000) });
    const { result } = await collect(small.session.sendMessage('x'.repeat(12_000), signal));
    expect(result.kind).toBe('context_overflow');
  });
});

describe('compact declarations', () => {
  it("use only the full tools' own parameters, with the same types, and keep every required one", () => {
    for (const compact of COMPACT_TOOL_DECLARATIONS) {
      const full = BUILTIN_TOOL_SPECS.find((spec) => spec.name === compact.name);
      expect(full, compact.name).toBeDefined();
      const fullSchema = full!.parametersJsonSchema as {
        properties: Record<string, { type?: string }>;
        required?: string[];
      };
      const schema = compact.parametersJsonSchema as {
        properties: Record<string, { type?: string }>;
        required: string[];
      };
      for (const [name, property] of Object.entries(schema.properties)) {
        expect(fullSchema.properties[name]?.type, `${compact.name}.${name}`).toBe(property.type);
      }
      for (const required of fullSchema.required ?? []) expect(schema.required).toContain(required);
      expect(compact.description.length).toBeLessThan(80);
    }
  });
});
