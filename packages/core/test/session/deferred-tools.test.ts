/**
 * Deferred tools, seen on the requests a session sends: past the threshold, MCP tools are not
 * declared until `tool_search` finds them (or the model calls one by name), then declared on
 * every following request; built-ins are always declared; under the threshold nothing changes.
 */
import { describe, expect, it } from 'vitest';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import type { GenerateRequest, GenerateResponse, Part } from '../../src/contracts/messages';
import { createMcpTool } from '../../src/mcp/tool-adapter';
import { DeferredTools } from '../../src/session/deferred-tools';
import { Session } from '../../src/session/session';
import { lazyBuiltinTools } from '../../src/tools/builtin/declared';
import { ToolRegistry } from '../../src/tools/registry';
import { createToolSearchTool } from '../../src/tools/tool-search';
import { collect, tempContext } from '../helpers';

/** Answers each request with the next scripted parts; records the requests. */
class ScriptedGenerator implements ContentGenerator {
  readonly provider = 'script';
  readonly requests: GenerateRequest[] = [];
  constructor(private readonly script: Part[][]) {}
  async generateContent(): Promise<GenerateResponse> {
    throw new Error('not used');
  }
  async *generateContentStream(request: GenerateRequest): AsyncGenerator<GenerateResponse> {
    this.requests.push(structuredClone(request));
    const parts = this.script.shift() ?? [{ text: 'done' }];
    yield { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] };
  }
  async countTokens() {
    return { totalTokens: 0 };
  }
}

const TOPICS = ['weather', 'calendar', 'tickets', 'invoices', 'deployments'];

/** `count` MCP tools over two servers; the calls they receive go to `calls`. */
function mcpTools(count: number, calls: string[] = []) {
  return Array.from({ length: count }, (_, index) => {
    const topic = TOPICS[index % TOPICS.length]!;
    const name = `lookup_${topic}_${index}`;
    return createMcpTool({
      name: `mcp_${index % 2 ? 'ops' : 'office'}_${name}`,
      serverName: index % 2 ? 'ops' : 'office',
      info: {
        name,
        description: `Looks up ${topic} records of kind ${index}.`,
        inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      },
      backend: {
        callTool: async (tool) => {
          calls.push(tool);
          return { content: [{ type: 'text', text: `${tool} ok` }] };
        },
      },
      schemaTarget: () => 'gemini',
    });
  });
}

function sessionWith(script: Part[][], options: { mcp: number; deferAbove?: number; calls?: string[] }) {
  const generator = new ScriptedGenerator(script);
  const { ctx } = tempContext();
  const tools = new ToolRegistry([...lazyBuiltinTools(), ...mcpTools(options.mcp, options.calls)]);
  const session = new Session({
    generator,
    model: 'gemini-2.5-pro',
    tools,
    toolContext: ctx,
    approvalMode: 'yolo',
    includeEnvironmentContext: false,
    ...(options.deferAbove !== undefined ? { deferToolsAbove: options.deferAbove } : {}),
  });
  return { session, generator };
}

const names = (request: GenerateRequest | undefined) => (request?.tools ?? []).map((tool) => tool.name);
const mcpNames = (request: GenerateRequest | undefined) =>
  names(request).filter((name) => name.startsWith('mcp_'));
const call = (name: string, args: Record<string, unknown>): Part => ({ functionCall: { name, args } });

describe('deferred tools in a session', () => {
  it('past the threshold: built-ins and tool_search only; a found tool is declared from the next request on', async () => {
    const calls: string[] = [];
    const { session, generator } = sessionWith(
      [
        [call('tool_search', { query: 'invoices', max_results: 2 })],
        [call('mcp_ops_lookup_invoices_3', { id: 'A1' })],
        [{ text: 'done' }],
      ],
      { mcp: 100, deferAbove: 40, calls },
    );
    const { events } = await collect(session.sendMessage('find invoice A1', new AbortController().signal));
    const [first, second, third] = generator.requests;
    expect(mcpNames(first)).toEqual([]);
    expect(names(first)).toContain('tool_search');
    expect(names(first)).toContain('read_file');
    const search = first?.tools?.find((tool) => tool.name === 'tool_search');
    expect(search?.description).toContain('office (50), ops (50)');
    // The search result carries the tools' parameters, so the model can call one at once.
    const response = events.find(
      (event) => event.type === 'tool_call_response' && event.response.callId !== undefined,
    );
    expect(JSON.stringify(response)).toContain('mcp_ops_lookup_invoices_3');
    expect(JSON.stringify(response)).toContain('\\"required\\":[\\"id\\"]');
    expect(mcpNames(second)).toEqual(['mcp_ops_lookup_invoices_3', 'mcp_office_lookup_invoices_8']);
    expect(mcpNames(third)).toEqual(mcpNames(second));
    expect(calls).toEqual(['lookup_invoices_3']);
    // The first request leaves out what 100 small MCP tools declare (about half of all the bytes).
    const all = sessionWith([[{ text: 'hi' }]], { mcp: 100 });
    await collect(all.session.sendMessage('hi', new AbortController().signal));
    expect(mcpNames(all.generator.requests[0])).toHaveLength(100);
    expect(JSON.stringify(first?.tools).length).toBeLessThan(
      JSON.stringify(all.generator.requests[0]?.tools).length * 0.6,
    );
  });

  it('a deferred tool called by name before any search still runs, and is declared afterwards', async () => {
    const calls: string[] = [];
    const { session, generator } = sessionWith(
      [[call('mcp_office_lookup_weather_0', { id: 'x' })], [{ text: 'done' }]],
      { mcp: 60, deferAbove: 40, calls },
    );
    await collect(session.sendMessage('weather?', new AbortController().signal));
    expect(mcpNames(generator.requests[0])).toEqual([]);
    expect(calls).toEqual(['lookup_weather_0']);
    expect(mcpNames(generator.requests[1])).toEqual(['mcp_office_lookup_weather_0']);
  });

  it('under the threshold, or switched off, every tool is declared and tool_search is not', async () => {
    for (const options of [{ mcp: 5, deferAbove: 40 }, { mcp: 100 }]) {
      const { session, generator } = sessionWith([[{ text: 'hi' }]], options);
      await collect(session.sendMessage('hi', new AbortController().signal));
      expect(mcpNames(generator.requests[0])).toHaveLength(options.mcp);
      expect(names(generator.requests[0])).not.toContain('tool_search');
    }
  });
});

describe('tool_search', () => {
  const deferred = new DeferredTools(0);
  const tools = mcpTools(10);
  const search = createToolSearchTool(deferred);
  deferred.select([...tools, search]);

  it('ranks by words in names over words in descriptions; select: picks by name', () => {
    expect(deferred.search('calendar').map((tool) => tool.name)).toEqual([
      'mcp_ops_lookup_calendar_1',
      'mcp_office_lookup_calendar_6',
    ]);
    expect(deferred.search('select:mcp_ops_lookup_tickets_7, nope').map((tool) => tool.name)).toEqual([
      'mcp_ops_lookup_tickets_7',
    ]);
  });

  it('refuses a call without a query, as a correctable tool error', () => {
    const built = search.build({ max_results: 2 }, tempContext().ctx);
    expect(built.ok).toBe(false);
    expect(built.ok ? '' : built.error.message).toContain('query');
  });

  it('says what can be searched when nothing matches', async () => {
    const built = search.build({ query: 'spaceships' }, tempContext().ctx);
    if (!built.ok) throw new Error(built.error.message);
    const result = await built.invocation.execute({ signal: new AbortController().signal });
    expect(result.llmContent).toContain('No tool matched "spaceships"');
    expect(result.llmContent).toContain('office');
  });
});
