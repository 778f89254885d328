import { join } from 'node:path';
import { geminiFunctionCallReply, geminiTextReply, runKodo, tinyServerEntry } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs, type GeminiRequestBody, geminiMockEnv, geminiMockPerTest, writeFileIn } from './helpers';

// Deferred tools with a real MCP server offering 107 tools (the tiny server with
// --extra-tools=100): the first request declares the built-ins and tool_search only; a search
// declares what it found on the next request, and the found tool runs on the server.
const dirs = e2eDirs();
const gemini = geminiMockPerTest();
type Body = GeminiRequestBody;

const settings = (value: unknown) =>
  writeFileIn(join(dirs.workspace, '.kodo', 'settings.json'), JSON.stringify(value));
const kodo = (args: string[]) =>
  runKodo(args, { cwd: dirs.workspace, env: geminiMockEnv(dirs.home, gemini.url), timeoutMs: 30_000 });
const names = (request: { body: unknown }) =>
  ((request.body as Body).tools?.[0]?.functionDeclarations ?? []).map((tool) => tool.name);
const mcpNames = (request: { body: unknown }) => names(request).filter((name) => name.startsWith('mcp_'));
const bytes = (request: { body: unknown }) => JSON.stringify(request.body).length;

const server = { tiny: { ...tinyServerEntry(['--extra-tools=100']), trust: true } };

describe('deferred MCP tools', () => {
  it('tool_search finds a tool, which is declared from the next request on and runs', async () => {
    settings({ mcpServers: server });
    const mock = await gemini.start({
      script: [
        { chunks: geminiFunctionCallReply('tool_search', { query: 'create invoices', max_results: 1 }) },
        { chunks: geminiFunctionCallReply('mcp_tiny_invoices_create_17', { workspace: 'acme' }) },
        { chunks: geminiTextReply('Created.') },
      ],
    });
    const run = await kodo(['-p', 'create an invoice for acme']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [first, second, third] = mock.requests;
    expect(mcpNames(first!)).toEqual([]);
    expect(names(first!)).toEqual(expect.arrayContaining(['tool_search', 'read_file', 'glob']));
    expect(mcpNames(second!)).toEqual(['mcp_tiny_invoices_create_17']);
    const found = JSON.stringify((second!.body as Body).contents.at(-1));
    expect(found).toContain('mcp_tiny_invoices_create_17');
    expect(found).toContain('workspace');
    expect(JSON.stringify((third!.body as Body).contents.at(-1))).toContain('ran invoices_create_17');
  });

  it('with tools.toolSearch off every tool is declared: the first request is several times larger', async () => {
    settings({ mcpServers: server, tools: { toolSearch: { enabled: false } } });
    const mock = await gemini.start({
      script: [{ chunks: geminiTextReply('a') }, { chunks: geminiTextReply('b') }],
    });
    expect((await kodo(['-p', 'hi'])).code).toBe(0);
    settings({ mcpServers: server });
    expect((await kodo(['-p', 'hi'])).code).toBe(0);
    const [all, deferred] = mock.requests;
    expect(mcpNames(all!)).toHaveLength(107);
    expect(mcpNames(deferred!)).toEqual([]);
    expect(bytes(all!)).toBeGreaterThan(bytes(deferred!) * 2);
  });
});
