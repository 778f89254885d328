import { tinyServerEntry } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type McpServerConfig, resolveMcpServers } from '../../src/mcp/config';
import { McpManager, type McpManagerEvent } from '../../src/mcp/manager';
import { ToolRegistry } from '../../src/tools/registry';
import { runRegistered as run } from './helpers';

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.dispose()));
});

function servers(entries: Record<string, unknown>): McpServerConfig[] {
  return resolveMcpServers({ servers: entries, env: process.env }).servers;
}

function managerFor(entries: Record<string, unknown>) {
  const registry = new ToolRegistry();
  const events: McpManagerEvent[] = [];
  const manager = new McpManager({
    servers: servers(entries),
    registry,
    baseEnv: process.env,
    cwd: process.cwd(),
  });
  managers.push(manager);
  manager.subscribe((event) => events.push(event));
  return { manager, registry, events };
}

describe('McpManager with the tiny server over stdio', () => {
  it('registers the tools as mcp_<server>_<tool> and runs them', async () => {
    const { manager, registry } = managerFor({ tiny: tinyServerEntry() });
    await manager.waitForDiscovery();
    const [status] = manager.servers();
    expect(status).toMatchObject({
      name: 'tiny',
      state: 'connected',
      transport: 'stdio',
      promptCount: 1,
      resourceCount: 1,
    });
    expect(status!.tools.map((tool) => tool.name)).toContain('mcp_tiny_echo');
    // `odd.schema` has a character providers reject.
    expect(registry.get('mcp_tiny_odd_schema')?.displayName).toBe('odd.schema (tiny MCP Server)');
    const echo = await run(registry, 'mcp_tiny_echo', { text: 'hi' });
    expect(echo.error).toBeUndefined();
    expect(echo.llmContent).toBe('<untrusted_context>\necho: hi\n</untrusted_context>');
  });

  it('answers a missing required argument before calling the server', async () => {
    const { manager, registry } = managerFor({ tiny: tinyServerEntry() });
    await manager.waitForDiscovery();
    const result = await run(registry, 'mcp_tiny_echo', {});
    expect(result.error).toEqual({
      type: 'invalid_tool_params',
      message: "params must have required property 'text'",
    });
  });

  it('turns images into inline data, isError into mcp_tool_error, and progress into output', async () => {
    const { manager, registry } = managerFor({ tiny: tinyServerEntry() });
    await manager.waitForDiscovery();
    const picture = await run(registry, 'mcp_tiny_picture', {});
    expect(picture.llmContent).toEqual([
      { text: '<untrusted_context>\na picture\n</untrusted_context>' },
      { inlineData: { mimeType: 'image/png', data: expect.any(String) } },
    ]);
    const fail = await run(registry, 'mcp_tiny_fail', {});
    expect(fail.error?.type).toBe('mcp_tool_error');
    expect(fail.error?.message).toContain(
      `MCP tool 'fail' reported tool error for function call: {"name":"fail","args":{}}`,
    );
    const progress: string[] = [];
    const slow = await run(registry, 'mcp_tiny_slow', { ms: 40 }, (text) => progress.push(text));
    expect(slow.llmContent).toContain('waited 40 ms');
    // The last notification may arrive after the result; the first one always comes before it.
    expect(progress[0]).toBe('Progress 1/2: step 1\n');
  });

  it('reports a server that crashes mid-call; its tools answer with a clear error until refreshed', async () => {
    const { manager, registry, events } = managerFor({ tiny: tinyServerEntry() });
    await manager.waitForDiscovery();
    const crash = await run(registry, 'mcp_tiny_crash', {});
    expect(crash.error?.type).toBe('mcp_server_unavailable');
    expect(crash.error?.message).toMatch(/MCP server 'tiny' went away while running tool 'crash'/);
    expect(crash.error?.message).toContain('tiny server: crashing on purpose');
    expect(crash.error?.message).toContain('/mcp refresh');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'server_state', state: 'disconnected', previous: 'connected' }),
    );
    // The tools stay: a call says why it cannot run instead of "not found".
    const echo = await run(registry, 'mcp_tiny_echo', { text: 'x' });
    expect(echo.error?.message).toMatch(/MCP server 'tiny' is not connected .*\/mcp refresh/);
    await manager.refresh('tiny');
    expect(manager.servers()[0]!.state).toBe('connected');
    expect((await run(registry, 'mcp_tiny_echo', { text: 'back' })).llmContent).toContain('echo: back');
  });

  it('follows tools/list_changed notifications', async () => {
    const { manager, registry, events } = managerFor({ tiny: tinyServerEntry() });
    await manager.waitForDiscovery();
    await run(registry, 'mcp_tiny_add_tool', { name: 'late' });
    await expect.poll(() => registry.get('mcp_tiny_late')).toBeDefined();
    expect(events).toContainEqual({
      type: 'tools_changed',
      server: 'tiny',
      added: ['mcp_tiny_late'],
      removed: [],
    });
  });

  it('gives up on a server slower than its timeout, and waits for one within it', async () => {
    const { manager, registry } = managerFor({
      slow: { ...tinyServerEntry(['--start-delay=30000']), timeout: 300 },
      patient: { ...tinyServerEntry(['--start-delay=300']), timeout: 10_000 },
    });
    const started = Date.now();
    await manager.waitForDiscovery();
    expect(Date.now() - started).toBeLessThan(10_000);
    const [slow, patient] = manager.servers();
    expect(slow).toMatchObject({ state: 'failed', error: 'did not answer within 300 ms' });
    expect(patient!.state).toBe('connected');
    expect(registry.get('mcp_slow_echo')).toBeUndefined();
    expect(registry.get('mcp_patient_echo')).toBeDefined();
  });

  it('reports a server that exits at start with its stderr, and a missing command', async () => {
    const { manager } = managerFor({
      dead: tinyServerEntry(['--exit-at-start=2']),
      missing: { command: 'kodo-no-such-mcp-server' },
    });
    await manager.waitForDiscovery();
    const [dead, missing] = manager.servers();
    expect(dead!.state).toBe('failed');
    expect(dead!.error).toContain('tiny server: refusing to start');
    expect(missing).toMatchObject({ state: 'failed', error: 'command not found: kodo-no-such-mcp-server' });
  });

  it('filters tools with includeTools and excludeTools (exclude wins)', async () => {
    const { manager } = managerFor({
      tiny: { ...tinyServerEntry(), includeTools: ['echo', 'fail(x)', 'picture'], excludeTools: ['picture'] },
    });
    await manager.waitForDiscovery();
    expect(manager.servers()[0]!.tools.map((tool) => tool.serverToolName)).toEqual(['echo', 'fail']);
  });

  it('offers resource tools, @server:uri content and prompts', async () => {
    const { manager, registry } = managerFor({ tiny: tinyServerEntry() });
    await manager.waitForDiscovery();
    const list = await run(registry, 'list_mcp_resources', {});
    expect(list.llmContent).toContain('tiny://notes/hello (hello, text/plain) — A greeting.');
    const read = await run(registry, 'read_mcp_resource', { server_name: 'tiny', uri: 'tiny://notes/hello' });
    expect(read.llmContent).toBe('<untrusted_context>\nHello from a resource.\n</untrusted_context>');
    // Without server_name, the server is the one that lists the URI.
    const byUri = await run(registry, 'read_mcp_resource', { uri: 'tiny://notes/hello' });
    expect(byUri.llmContent).toBe(read.llmContent);
    const unknown = await run(registry, 'read_mcp_resource', { server_name: 'nope', uri: 'x' });
    expect(unknown.error?.message).toContain("No connected MCP server 'nope' offers resources.");
    const [greet] = manager.promptCommands();
    expect(greet).toMatchObject({ name: 'greet', server: 'tiny' });
    const messages = await manager.getPrompt('tiny', 'greet', { name: 'Ada' }, new AbortController().signal);
    expect(messages[0]!.content).toEqual({ type: 'text', text: 'Say hello to Ada in a plain tone.' });
    await manager.dispose();
    expect(registry.get('list_mcp_resources')).toBeUndefined();
    expect(registry.get('mcp_tiny_echo')).toBeUndefined();
  });
});
