import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everythingServerPath, filesystemServerPath } from '@kodo/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveMcpServers } from '../../src/mcp/config';
import { McpManager } from '../../src/mcp/manager';
import { ToolRegistry } from '../../src/tools/registry';
import { runRegistered } from './helpers';

// The reference servers from npm, over stdio (the HTTP transports are covered end to end with
// the built kodo, in packages/cli/test/e2e/mcp.e2e.test.ts).
let dir: string;
let registry: ToolRegistry;
let manager: McpManager;
beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-mcp-fs-')));
  writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond line\n');
  registry = new ToolRegistry();
  const { servers } = resolveMcpServers({
    servers: {
      everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] },
      fs: { command: process.execPath, args: [filesystemServerPath(), dir] },
    },
    env: process.env,
  });
  manager = new McpManager({ servers, registry, baseEnv: process.env, cwd: dir });
  await manager.waitForDiscovery();
}, 30_000);
afterAll(async () => {
  await manager.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('connects and registers its tools, keeping `-` in names', () => {
    const everything = manager.servers().find((server) => server.name === 'everything')!;
    expect(everything.state).toBe('connected');
    const names = everything.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['mcp_everything_echo', 'mcp_everything_get-sum']));
    expect(everything.promptCount).toBeGreaterThan(0);
    expect(everything.resourceCount).toBeGreaterThan(0);
  });

  it('runs tools and converts text, image and resource-link results', async () => {
    const echo = await runRegistered(registry, 'mcp_everything_echo', { message: 'hello' });
    expect(echo.llmContent).toBe('<untrusted_context>\nEcho: hello\n</untrusted_context>');
    const sum = await runRegistered(registry, 'mcp_everything_get-sum', { a: 2, b: 3 });
    expect(sum.llmContent).toContain('5');
    const image = await runRegistered(registry, 'mcp_everything_get-tiny-image', {});
    expect(Array.isArray(image.llmContent)).toBe(true);
    expect(image.llmContent).toContainEqual({
      inlineData: { mimeType: 'image/png', data: expect.any(String) },
    });
    const links = await runRegistered(registry, 'mcp_everything_get-resource-links', { count: 2 });
    expect(links.llmContent).toMatch(/\[Link to [^\]]+: demo:\/\/resource\//);
  });

  it('reads its resources through read_mcp_resource', async () => {
    const [first] = manager.resourceServers().find((server) => server.name === 'everything')!.resources;
    const read = await runRegistered(registry, 'read_mcp_resource', {
      server_name: 'everything',
      uri: first!.uri,
    });
    expect(read.error).toBeUndefined();
  });
});

describe('@modelcontextprotocol/server-filesystem over stdio', () => {
  it('reads a file of the directory it was given', async () => {
    const result = await runRegistered(registry, 'mcp_fs_read_text_file', { path: join(dir, 'notes.txt') });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toContain('second line');
  });

  it('reports the server’s own refusal (a path outside its directories) as an error result', async () => {
    const result = await runRegistered(registry, 'mcp_fs_read_text_file', { path: '/etc/hostname' });
    expect(result.error?.type).toBe('mcp_tool_error');
    expect(result.error?.message).toMatch(/Access denied|outside allowed/i);
  });
});
