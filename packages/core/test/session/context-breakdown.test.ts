import { describe, expect, it } from 'vitest';
import { FakeContentGenerator } from '../../src/llm/fake';
import { computeContextBreakdown } from '../../src/session/context-breakdown';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { collect, stream, tempContext, testTools, text } from '../helpers';

const bySource = (breakdown: { sources: { label: string; tokens: number }[] }) =>
  Object.fromEntries(breakdown.sources.map((source) => [source.label, source.tokens]));

describe('computeContextBreakdown', () => {
  it('counts each source once: context files and skills come out of the system prompt, project files out of the history', () => {
    const memory = 'm'.repeat(400); // 100 tokens
    const skills = 's'.repeat(200); // 50 tokens
    const project = 'p'.repeat(80); // 20 tokens
    const breakdown = computeContextBreakdown({
      model: 'm1',
      window: 10_000,
      systemInstruction: `${'x'.repeat(40)}${memory}${skills}`,
      memoryBlock: memory,
      firstTurnMemoryBlock: project,
      skillSections: [skills],
      declarations: [
        { declaration: { name: 'read_file', description: 'r', parametersJsonSchema: {} } },
        {
          declaration: { name: 'gh_issue', description: 'i', parametersJsonSchema: {} },
          serverName: 'github',
        },
        { declaration: { name: 'gh_pr', description: 'p', parametersJsonSchema: {} }, serverName: 'github' },
        { declaration: { name: 'q', description: 'q', parametersJsonSchema: {} }, serverName: 'db' },
      ],
      history: [
        { role: 'user', parts: [{ text: `${project}${'u'.repeat(40)}` }] },
        { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'read_file', response: { output: 'o'.repeat(396) } } }],
        },
      ],
      measured: 1234,
    });
    const sources = bySource(breakdown);
    expect(sources['system prompt']).toBe(10);
    expect(sources['context files']).toBe(120);
    expect(sources.skills).toBe(50);
    expect(sources.history).toBeGreaterThanOrEqual(10);
    expect(sources['tool outputs']).toBeGreaterThanOrEqual(100);
    expect(sources['tools (built-in)']).toBeGreaterThan(0);
    expect(Object.keys(sources)).toEqual([
      'system prompt',
      'tools (built-in)',
      'MCP server db',
      'MCP server github',
      'context files',
      'skills',
      'history',
      'tool outputs',
    ]);
    expect(sources['MCP server github']).toBeGreaterThan(sources['MCP server db']!);
    expect(breakdown.total).toBe(Object.values(sources).reduce((a, b) => a + b, 0));
    expect(breakdown).toMatchObject({ model: 'm1', window: 10_000, measured: 1234 });
  });
});

describe('Session.contextBreakdown', () => {
  it('reads the session’s own system prompt, declared tools (MCP by server), history and window', async () => {
    const [echo, ...rest] = testTools();
    const mcpTool = Object.assign(Object.create(Object.getPrototypeOf(echo!)), echo, {
      name: 'mcp_docs_search',
      serverName: 'docs',
      declaration: () => ({ name: 'mcp_docs_search', description: 'search docs', parametersJsonSchema: {} }),
    });
    const { ctx, cleanup } = tempContext();
    const session = new Session({
      generator: new FakeContentGenerator([stream(text('hello back'))], { strict: true }),
      model: 'gemini-2.5-pro',
      tools: new ToolRegistry([echo!, ...rest, mcpTool]),
      toolContext: ctx,
      approvalMode: 'yolo',
      includeEnvironmentContext: false,
      promptSections: () => ['# Skills\n- review: reviews code'],
    });
    const before = bySource(session.contextBreakdown());
    expect(before.history).toBe(0);
    expect(before['MCP server docs']).toBeGreaterThan(0);
    expect(before.skills).toBeGreaterThan(0);
    expect(before['system prompt']).toBeGreaterThan(100);
    await collect(session.sendMessage('hello there', new AbortController().signal));
    const after = session.contextBreakdown();
    expect(bySource(after).history).toBeGreaterThan(0);
    expect(after.window).toBe(session.contextWindow('gemini-2.5-pro'));
    expect(after.window).toBeGreaterThan(100_000);
    cleanup();
  });
});
