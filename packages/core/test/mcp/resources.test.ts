import { describe, expect, it } from 'vitest';
import { createResourceTools, type McpResourceSource } from '../../src/mcp/resources';
import { ToolRegistry } from '../../src/tools/registry';
import { runRegistered } from './helpers';

/** Two servers with resources; every read says which server answered. */
function registryWith(servers: { name: string; uris: string[] }[]): {
  registry: ToolRegistry;
  reads: string[];
} {
  const reads: string[] = [];
  const source: McpResourceSource = {
    resourceServers: () =>
      servers.map((server) => ({
        name: server.name,
        resources: server.uris.map((uri) => ({ uri, name: uri.split('/').at(-1)! })),
      })),
    readResource: async (server, uri) => {
      reads.push(`${server} ${uri}`);
      return [{ uri, text: `${uri} from ${server}` }];
    },
  };
  const registry = new ToolRegistry();
  for (const tool of createResourceTools(source)) registry.register(tool);
  return { registry, reads };
}

describe('read_mcp_resource without server_name', () => {
  it('reads from the server whose list has the URI', async () => {
    const { registry, reads } = registryWith([
      { name: 'docs', uris: ['docs://guide'] },
      { name: 'db', uris: ['db://users', 'db://orders'] },
    ]);
    const result = await runRegistered(registry, 'read_mcp_resource', { uri: 'db://orders' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe('<untrusted_context>\ndb://orders from db\n</untrusted_context>');
    expect(reads).toEqual(['db db://orders']);
  });

  it('an unlisted URI goes to the only server with resources (a templated URI)', async () => {
    const { registry, reads } = registryWith([{ name: 'docs', uris: ['docs://guide'] }]);
    await runRegistered(registry, 'read_mcp_resource', { uri: 'docs://pages/42' });
    expect(reads).toEqual(['docs docs://pages/42']);
  });

  it('an unlisted URI among several servers is an error naming them; nothing is read', async () => {
    const { registry, reads } = registryWith([
      { name: 'docs', uris: ['docs://guide'] },
      { name: 'db', uris: ['db://users'] },
    ]);
    const result = await runRegistered(registry, 'read_mcp_resource', { uri: 'x://nowhere' });
    expect(result.error?.type).toBe('invalid_tool_params');
    expect(result.error?.message).toBe(
      "No connected MCP server lists x://nowhere. Give server_name (servers with resources: 'docs', 'db'), or see list_mcp_resources.",
    );
    expect(reads).toEqual([]);
  });

  it('a URI two servers list is ambiguous', async () => {
    const { registry, reads } = registryWith([
      { name: 'a', uris: ['same://x'] },
      { name: 'b', uris: ['same://x'] },
    ]);
    const result = await runRegistered(registry, 'read_mcp_resource', { uri: 'same://x' });
    expect(result.error?.message).toBe("Several MCP servers list same://x ('a', 'b'): give server_name.");
    expect(reads).toEqual([]);
  });

  it('a named server still wins', async () => {
    const { registry, reads } = registryWith([
      { name: 'a', uris: ['same://x'] },
      { name: 'b', uris: ['same://x'] },
    ]);
    await runRegistered(registry, 'read_mcp_resource', { server_name: 'b', uri: 'same://x' });
    expect(reads).toEqual(['b same://x']);
  });
});
