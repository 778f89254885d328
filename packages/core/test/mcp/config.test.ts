// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` in settings values is what these tests are about.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  expandEnvVars,
  isToolEnabled,
  resolveMcpServers,
} from '../../src/mcp/config';
import { mcpPolicyRules } from '../../src/mcp/policy-rules';
import { PolicyEngine } from '../../src/scheduler/policy/engine';

const env = { HOME: '/home/me', TOKEN: 's3cret', EMPTY: '' };

describe('expandEnvVars', () => {
  it.each([
    ['$HOME/bin', '/home/me/bin'],
    ['${HOME}/bin', '/home/me/bin'],
    ['Bearer ${TOKEN}', 'Bearer s3cret'],
    ['${MISSING:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['$MISSING stays', '$MISSING stays'],
    ['${MISSING}', '${MISSING}'],
    ['no variables', 'no variables'],
  ])('%s → %s', (input, output) => {
    expect(expandEnvVars(input, env)).toBe(output);
  });
});

describe('resolveMcpServers', () => {
  it('reads stdio, HTTP and SSE entries, expanding variables', () => {
    const { servers, problems } = resolveMcpServers({
      servers: {
        local: {
          command: '$HOME/bin/server',
          args: ['--token', '${TOKEN}'],
          env: { KEY: '$TOKEN' },
          cwd: 'sub',
        },
        remote: {
          url: 'https://example.test/mcp',
          headers: { Authorization: 'Bearer $TOKEN' },
          timeout: 5000,
        },
        old: { url: 'https://example.test/sse', type: 'sse' },
        typed: { url: 'https://example.test/mcp', type: 'http' },
        legacy: { httpUrl: 'https://example.test/mcp', url: 'https://ignored.test' },
      },
      env,
    });
    expect(problems).toEqual([]);
    expect(servers.map((server) => [server.name, server.transport])).toEqual([
      [
        'local',
        {
          kind: 'stdio',
          command: '/home/me/bin/server',
          args: ['--token', 's3cret'],
          env: { KEY: 's3cret' },
          cwd: 'sub',
        },
      ],
      [
        'remote',
        { kind: 'auto', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer s3cret' } },
      ],
      ['old', { kind: 'sse', url: 'https://example.test/sse', headers: {} }],
      ['typed', { kind: 'http', url: 'https://example.test/mcp', headers: {} }],
      ['legacy', { kind: 'http', url: 'https://example.test/mcp', headers: {} }],
    ]);
    expect(servers[1]).toMatchObject({ requestTimeoutMs: 5000, connectTimeoutMs: 5000 });
    expect(servers[0]).toMatchObject({
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
      trust: false,
    });
  });

  it('skips broken entries with a message; the others still resolve', () => {
    const { servers, problems } = resolveMcpServers({
      servers: {
        a: { command: 'a' },
        broken: { args: [] },
        bad: 'x',
        c: { url: 'https://example.test/mcp' },
      },
      env,
    });
    expect(servers.map((server) => server.name)).toEqual(['a', 'c']);
    expect(problems).toEqual([
      `MCP server 'broken': set "command" (stdio), "url" or "httpUrl".`,
      `MCP server 'bad': the entry must be an object.`,
    ]);
  });

  it('filters tools by original name: exclude wins, include accepts name(...)', () => {
    const [server] = resolveMcpServers({
      servers: { s: { command: 'x', includeTools: ['read(path)', 'write'], excludeTools: ['write'] } },
      env,
    }).servers;
    expect(isToolEnabled(server!, 'read')).toBe(true);
    expect(isToolEnabled(server!, 'write')).toBe(false);
    expect(isToolEnabled(server!, 'other')).toBe(false);
  });
});

describe('MCP policy rules', () => {
  const engine = () => {
    const policy = new PolicyEngine();
    policy.addRules(
      mcpPolicyRules({
        servers: { trusted_one: { command: 'x', trust: true }, plain: { command: 'y' } },
        mcp: { allowed: ['listed'], excluded: ['banned'] },
      }),
    );
    return policy;
  };
  const call = (server: string) => ({
    name: `mcp_${server}_tool`,
    kind: 'other' as const,
    args: {},
    serverName: server,
  });

  it('trust and mcp.allowed run a server’s tools without asking, outside plan mode', async () => {
    const policy = engine();
    // The server name has `_`: matched by the tool's server, not by parsing its name.
    expect(await policy.check(call('trusted_one'), { mode: 'default', interactive: false })).toEqual({
      decision: 'allow',
    });
    expect(await policy.check(call('listed'), { mode: 'default', interactive: false })).toEqual({
      decision: 'allow',
    });
    expect((await policy.check(call('trusted_one'), { mode: 'plan', interactive: false })).decision).toBe(
      'deny',
    );
    expect((await policy.check(call('plain'), { mode: 'default', interactive: true })).decision).toBe(
      'ask_user',
    );
  });

  it('mcp.excluded refuses a server’s tools, even in yolo mode', async () => {
    const policy = engine();
    expect((await policy.check(call('banned'), { mode: 'yolo', interactive: true })).decision).toBe('deny');
  });

  it('annotated read-only MCP tools ask in plan mode (interactive)', async () => {
    const policy = new PolicyEngine();
    const input = { ...call('plain'), annotations: { readOnlyHint: true } };
    expect((await policy.check(input, { mode: 'plan', interactive: true })).decision).toBe('ask_user');
    expect((await policy.check(call('plain'), { mode: 'plan', interactive: true })).decision).toBe('deny');
  });
});

describe('mcpServers across settings scopes', () => {
  it('merges shallowly: a project entry replaces the user entry of the same name', () => {
    const home = mkdtempSync(join(tmpdir(), 'kodo-mcp-home-'));
    const project = mkdtempSync(join(tmpdir(), 'kodo-mcp-project-'));
    try {
      mkdirSync(join(home, '.kodo'));
      mkdirSync(join(project, '.gemini'));
      writeFileSync(
        join(home, '.kodo', 'settings.json'),
        JSON.stringify({
          mcpServers: { shared: { command: 'user-cmd', trust: true }, mine: { command: 'm' } },
        }),
      );
      writeFileSync(
        join(project, '.gemini', 'settings.json'),
        JSON.stringify({ mcpServers: { shared: { url: 'http://127.0.0.1:1/mcp' } } }),
      );
      const { merged } = loadSettings({
        cwd: project,
        env: { KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home },
      });
      expect(merged.mcpServers).toEqual({
        shared: { url: 'http://127.0.0.1:1/mcp' },
        mine: { command: 'm' },
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(project, { recursive: true, force: true });
    }
  });
});
