import type { McpManager, McpServerStatus } from '@kodo/core/engine';
import { describe, expect, it } from 'vitest';
import { parseAdd } from '../src/commands/mcp';
import { formatStatus } from '../src/shared/mcp-status';
import { createMcpSlashCommand } from '../src/ui/commands/mcp-command';

describe('kodo mcp add arguments', () => {
  it('takes options before the name and passes every word after the command to the server', () => {
    expect(
      parseAdd(['-s', 'user', '--env=A=1', 'fs', 'npx', '-y', '@scope/server', '--root', '/tmp']),
    ).toEqual({
      ok: true,
      scope: 'user',
      name: 'fs',
      entry: { command: 'npx', args: ['-y', '@scope/server', '--root', '/tmp'], env: { A: '1' } },
    });
    expect(parseAdd(['--', 'x', 'cmd', '--', '--flag'])).toMatchObject({
      entry: { command: 'cmd', args: ['--flag'] },
    });
  });

  it('writes remote servers with their transport type', () => {
    expect(
      parseAdd(['-t', 'sse', '--timeout', '5000', '--include-tools', 'a, b', 'r', 'https://x.test/sse']),
    ).toEqual({
      ok: true,
      scope: 'project',
      name: 'r',
      entry: { url: 'https://x.test/sse', type: 'sse', timeout: 5000, includeTools: ['a', 'b'] },
    });
  });

  it.each([
    [['-t', 'http', 'r', 'not-a-url'], 'A http server needs a URL: not-a-url'],
    [['--bogus', 'a', 'b'], 'Unknown option: --bogus'],
    [['-e', 'NOEQUALS', 'a', 'b'], 'Invalid --env value: NOEQUALS (expected KEY=value)'],
    [['bad name', 'cmd'], "Invalid server name: bad name (letters, digits, '_', '-' and '.')"],
    [['-H', 'X: y', 'a', 'cmd'], '--header is for http and sse servers.'],
  ])('%j → %s', (words, message) => {
    expect(parseAdd(words)).toEqual({ ok: false, message });
  });
});

describe('/mcp', () => {
  const status = (overrides: Partial<McpServerStatus>): McpServerStatus => ({
    name: 'tiny',
    state: 'connected',
    trust: false,
    tools: [{ name: 'mcp_tiny_echo', serverToolName: 'echo', description: 'Echoes.' }],
    promptCount: 1,
    resourceCount: 0,
    ...overrides,
  });

  it('shows state, counts, tools and, with desc, their descriptions', () => {
    const servers = [
      status({}),
      status({ name: 'gone', state: 'disconnected', error: 'the server exited: boom', tools: [] }),
    ];
    expect(formatStatus(servers, { descriptions: false })).toBe(
      '✓ tiny - connected · 1 tool, 1 prompt\n    mcp_tiny_echo\n✗ gone - disconnected: the server exited: boom',
    );
    expect(formatStatus([status({})], { descriptions: true })).toBe(
      '✓ tiny - connected · 0 tools, 1 prompt\n    mcp_tiny_echo: Echoes.',
    );
  });

  it('refreshes the named server, then shows the list', async () => {
    const refreshed: (string | undefined)[] = [];
    const manager = {
      refresh: async (name?: string) => {
        refreshed.push(name);
      },
      servers: () => [status({})],
    } as unknown as McpManager;
    const items: { body: string }[] = [];
    const command = createMcpSlashCommand(() => manager);
    await command.run({
      args: 'refresh tiny',
      addItem: (item: { body: string }) => items.push(item),
    } as never);
    expect(refreshed).toEqual(['tiny']);
    expect(items[0]!.body).toContain('✓ tiny - connected');
    await createMcpSlashCommand(() => undefined).run({
      args: '',
      addItem: (item: { body: string }) => items.push(item),
    } as never);
    expect(items[1]!.body).toContain('No MCP servers configured');
  });
});

describe('/mcp auth', () => {
  it('shows the URL, opens the browser through the injected opener, signs in and shows the server', async () => {
    const signedIn: string[] = [];
    const manager = {
      signIn: async (
        name: string,
        options: { onAuthorizationUrl: (url: string) => void; openBrowser: (url: string) => Promise<void> },
      ) => {
        signedIn.push(name);
        options.onAuthorizationUrl('http://127.0.0.1:1/authorize?x=1');
        await options.openBrowser('http://127.0.0.1:1/authorize?x=1');
        return { scope: 'mcp', hasRefreshToken: true };
      },
      servers: () => [
        { name: 'remote', state: 'connected', trust: false, tools: [], promptCount: 0, resourceCount: 0 },
      ],
    } as unknown as McpManager;
    const opened: string[] = [];
    const items: { body: string }[] = [];
    const command = createMcpSlashCommand(() => manager, {
      openBrowser: async (url) => {
        opened.push(url);
      },
    });
    expect(command.subcommands?.map((sub) => sub.name)).toContain('auth');
    await command.run({
      args: 'auth remote',
      env: {},
      addItem: (item: { body: string }) => items.push(item),
    } as never);
    expect(signedIn).toEqual(['remote']);
    expect(opened).toEqual(['http://127.0.0.1:1/authorize?x=1']);
    expect(items[0]!.body).toContain('http://127.0.0.1:1/authorize?x=1');
    expect(items[1]!.body).toContain("Signed in to MCP server 'remote' (scope: mcp)");
    expect(items[1]!.body).toContain('✓ remote - connected');
    await command.run({
      args: 'auth',
      env: {},
      addItem: (item: { body: string }) => items.push(item),
    } as never);
    expect(items[2]!.body).toBe('Usage: /mcp auth <server>');
  });
});
