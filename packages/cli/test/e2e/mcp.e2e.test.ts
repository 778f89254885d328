import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GeminiMock,
  geminiFunctionCallReply,
  geminiTextReply,
  type RunningMcpServer,
  runKodo,
  startEverythingHttpServer,
  startGeminiMock,
  tinyServerEntry,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

// kodo (the built bundle) with real MCP servers: the tiny test server over stdio, and the
// reference "everything" server over Streamable HTTP and SSE. The model is the mock Gemini
// server, so the tests see exactly what kodo declares and sends.
const dirs = e2eDirs();
let mock: GeminiMock | undefined;
let http: RunningMcpServer | undefined;
afterEach(async () => {
  await mock?.close();
  await http?.stop();
  mock = undefined;
  http = undefined;
});

interface Body {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  tools?: { functionDeclarations: { name: string; parametersJsonSchema?: Record<string, unknown> }[] }[];
}

function settings(value: unknown): void {
  mkdirSync(join(dirs.workspace, '.kodo'), { recursive: true });
  writeFileSync(join(dirs.workspace, '.kodo', 'settings.json'), JSON.stringify(value));
}

const kodo = (args: string[]) =>
  runKodo(args, { cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock?.url), timeoutMs: 30_000 });

const declarations = (request: { body: unknown }) =>
  (request.body as Body).tools?.[0]?.functionDeclarations ?? [];
const functionResponse = (request: { body: unknown }) =>
  (request.body as Body).contents.at(-1)!.parts[0]!.functionResponse as { response: Record<string, unknown> };

describe('kodo with MCP servers', () => {
  it('waits for a stdio server before the first request, declares its tools and runs them', async () => {
    settings({ mcpServers: { tiny: { ...tinyServerEntry(), trust: true } } });
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_tiny_echo', { text: 'over stdio' }) },
        { chunks: geminiTextReply('Echoed.') },
      ],
    });
    const run = await kodo(['-p', 'echo something']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('Echoed.\n');
    expect(run.code).toBe(0);
    const tools = declarations(mock.requests[0]!);
    const echo = tools.find((tool) => tool.name === 'mcp_tiny_echo');
    // Cleaned for Gemini: no $schema, no additionalProperties.
    expect(echo?.parametersJsonSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['mcp_tiny_odd_schema', 'read_mcp_resource']),
    );
    expect(functionResponse(mock.requests[1]!).response.output).toBe(
      '<untrusted_context>\necho: over stdio\n</untrusted_context>',
    );
  });

  it('does not offer an untrusted server’s tools headless (the policy would have to ask)', async () => {
    settings({ mcpServers: { tiny: tinyServerEntry() } });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('ok') }] });
    const run = await kodo(['-p', 'hi']);
    expect(run.code).toBe(0);
    const names = declarations(mock.requests[0]!).map((tool) => tool.name);
    expect(names.some((name) => name.startsWith('mcp_tiny_'))).toBe(false);
    // Reading resources needs no approval.
    expect(names).toContain('list_mcp_resources');
  });

  it('reports a server that crashes mid-session; its tool answers with a clear error', async () => {
    settings({ mcpServers: { tiny: { ...tinyServerEntry(), trust: true } } });
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_tiny_crash', {}) },
        { chunks: geminiFunctionCallReply('mcp_tiny_echo', { text: 'still there?' }) },
        { chunks: geminiTextReply('The server is gone.') },
      ],
    });
    const run = await kodo(['-p', 'crash it']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "[WARNING] MCP server 'tiny' disconnected (the server exited: tiny server: crashing on purpose)",
    );
    expect(functionResponse(mock.requests[1]!).response.error).toMatch(
      /MCP server 'tiny' went away while running tool 'crash'/,
    );
    expect(functionResponse(mock.requests[2]!).response.error).toMatch(
      /MCP server 'tiny' is not connected .*\/mcp refresh/,
    );
  });

  it('does not wait past a slow server’s timeout, and reports a dead one', async () => {
    settings({
      mcpServers: {
        slow: { ...tinyServerEntry(['--start-delay=20000']), timeout: 500 },
        dead: tinyServerEntry(['--exit-at-start=1']),
      },
    });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Answered anyway.') }] });
    const started = Date.now();
    const run = await kodo(['-p', 'hi']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Answered anyway.\n');
    expect(run.stderr).toContain(
      "[WARNING] MCP server 'slow' failed to connect: did not answer within 500 ms",
    );
    expect(run.stderr).toContain("[WARNING] MCP server 'dead' failed to connect");
    expect(run.stderr).toContain('tiny server: refusing to start');
  });

  it('turns /<prompt> into the server’s prompt and appends @server:uri resources', async () => {
    settings({ mcpServers: { tiny: tinyServerEntry() } });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Hello, Ada.') }] });
    const run = await kodo(['-p', '/greet Ada --tone=warm']);
    expect(run.code).toBe(0);
    const text = JSON.stringify((mock.requests[0]!.body as Body).contents.at(-1)!.parts);
    expect(text).toContain('Say hello to Ada in a warm tone.');

    mock.setScript([{ chunks: geminiTextReply('Read it.') }]);
    await kodo(['-p', 'Summarise @tiny:tiny://notes/hello please']);
    const withResource = JSON.stringify((mock.requests[1]!.body as Body).contents.at(-1)!.parts);
    expect(withResource).toContain('Content from @tiny:tiny://notes/hello:\\nHello from a resource.');

    const missing = await kodo(['-p', '/greet']);
    expect(missing.code).toBe(42);
    expect(missing.stderr).toContain('Missing required argument(s): --name');
  });

  it('connects to the everything server over Streamable HTTP', async () => {
    http = await startEverythingHttpServer('streamableHttp');
    settings({ mcpServers: { everything: { httpUrl: http.url, trust: true } } });
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_everything_echo', { message: 'over http' }) },
        { chunks: geminiTextReply('Done.') },
      ],
    });
    const run = await kodo(['-p', 'echo']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(functionResponse(mock.requests[1]!).response.output).toContain('Echo: over http');
  });

  it('falls back to SSE when a url without a type does not speak Streamable HTTP', async () => {
    http = await startEverythingHttpServer('sse');
    settings({ mcpServers: { everything: { url: http.url, trust: true } } });
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_everything_get-sum', { a: 20, b: 22 }) },
        { chunks: geminiTextReply('42.') },
      ],
    });
    const run = await kodo(['-p', 'add']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(functionResponse(mock.requests[1]!).response.output).toContain('42');
  });
});

describe("Claude Code's project .mcp.json", () => {
  /** A stdio server that leaves a marker file when it starts, written as Claude Code writes it. */
  function projectMcpJson(): string {
    const marker = join(dirs.root, 'started');
    const tiny = tinyServerEntry();
    writeFileSync(
      join(dirs.workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          tiny: {
            type: 'stdio',
            command: 'sh',
            args: ['-c', 'touch "$0" && exec "$1" "$2"', marker, tiny.command, ...tiny.args],
            env: {},
          },
        },
      }),
    );
    return marker;
  }

  it('starts its servers in a trusted folder: their tools are declared and run', async () => {
    const marker = projectMcpJson();
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_tiny_echo', { text: 'from .mcp.json' }) },
        { chunks: geminiTextReply('Echoed.') },
      ],
    });
    const run = await kodo(['-p', 'echo something', '--approval-mode', 'yolo']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(declarations(mock.requests[0]!).map((tool) => tool.name)).toContain('mcp_tiny_echo');
    expect(functionResponse(mock.requests[1]!).response.output).toContain('echo: from .mcp.json');
    // kodo mcp list shows it too.
    const list = await kodo(['mcp', 'list']);
    expect(list.stdout).toContain('tiny');
  });

  it('is not read in an untrusted folder: its server never starts', async () => {
    const marker = projectMcpJson();
    writeFileSync(
      join(dirs.home, 'settings.json'),
      JSON.stringify({ security: { folderTrust: { untrustedHeadless: 'restricted' } } }),
    );
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('ok') }] });
    const run = await runKodo(['-p', 'hi', '--approval-mode', 'yolo'], {
      cwd: dirs.workspace,
      env: { ...geminiMockEnv(dirs.home, mock.url), KODO_TRUST_WORKSPACE: 'false' },
      timeoutMs: 30_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const names = declarations(mock.requests[0]!).map((tool) => tool.name);
    expect(names.some((name) => name.startsWith('mcp_tiny_'))).toBe(false);
  });

  it("the project's own settings win on a server name", async () => {
    const marker = projectMcpJson();
    settings({ mcpServers: { tiny: { ...tinyServerEntry(), trust: true } } });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('ok') }] });
    expect((await kodo(['-p', 'hi'])).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(declarations(mock.requests[0]!).map((tool) => tool.name)).toContain('mcp_tiny_echo');
  });
});

describe('kodo mcp add | list | remove', () => {
  const mcp = (args: string[]) =>
    runKodo(['mcp', ...args], { cwd: dirs.workspace, env: { KODO_HOME: dirs.home } });

  it('adds a server to the project settings, keeping the file’s other content', async () => {
    mkdirSync(join(dirs.workspace, '.kodo'));
    writeFileSync(
      join(dirs.workspace, '.kodo', 'settings.json'),
      '{\n  // my model\n  "model": { "name": "gemini-2.5-flash" },\n}\n',
    );
    const entry = tinyServerEntry();
    const added = await mcp(['add', '-e', 'A=1', '--trust', 'tiny', entry.command, ...entry.args, '-y']);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("Added MCP server 'tiny'");
    const text = readFileSync(join(dirs.workspace, '.kodo', 'settings.json'), 'utf8');
    expect(text).toContain('// my model');
    expect(text).toContain('"name": "gemini-2.5-flash"');
    expect(text).toContain('"-y"');

    const list = await mcp(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /✓ tiny \(.*tiny-server\.mjs -y \(stdio\), project\) - connected · 7 tools, 1 prompt, 1 resource \(trusted\)/,
    );
    expect(list.stdout).toContain('mcp_tiny_echo');

    const removed = await mcp(['remove', 'tiny']);
    expect(removed.code).toBe(0);
    const after = readFileSync(join(dirs.workspace, '.kodo', 'settings.json'), 'utf8');
    expect(after).not.toContain('tiny');
    expect(after).toContain('// my model');
  });

  it("lists an extension's servers beside the settings' ones, as a session here starts them", async () => {
    const tiny = tinyServerEntry();
    const root = join(dirs.home, 'extensions', 'list-ext');
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(root, 'gemini-extension.json'),
      JSON.stringify({
        name: 'list-ext',
        version: '1.0.0',
        mcpServers: { 'ext-tiny': { command: tiny.command, args: tiny.args } },
      }),
    );
    const list = await mcp(['list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      /✓ ext-tiny \(.*tiny-server\.mjs \(stdio\), extension list-ext\) - connected · 7 tools/,
    );
  });

  it('adds remote servers to the user settings and lists failures', async () => {
    const added = await mcp([
      'add',
      '--scope',
      'user',
      '-t',
      'http',
      '-H',
      'Authorization: Bearer x',
      'remote',
      'http://127.0.0.1:9/mcp',
    ]);
    expect(added.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dirs.home, 'settings.json'), 'utf8'))).toEqual({
      mcpServers: {
        remote: { url: 'http://127.0.0.1:9/mcp', type: 'http', headers: { Authorization: 'Bearer x' } },
      },
    });
    const list = await mcp(['list']);
    expect(list.stdout).toMatch(/✗ remote \(http:\/\/127\.0\.0\.1:9\/mcp \(http\), user\) - failed: /);
    const wrongScope = await mcp(['remove', 'remote']);
    expect(wrongScope.code).toBe(1);
    expect(wrongScope.stderr).toContain('It is in the user settings: add --scope user.');
  });

  it('says why a server does not start, as a session here decides it (mcp.excluded, mcp.allowed, trust)', async () => {
    const tiny = tinyServerEntry();
    writeFileSync(
      join(dirs.home, 'settings.json'),
      JSON.stringify({
        mcpServers: {
          tiny: { command: tiny.command, args: tiny.args },
          off: { command: tiny.command, args: tiny.args },
          outside: { url: 'http://127.0.0.1:9/mcp' },
        },
        mcp: { allowed: ['tiny', 'off'], excluded: ['off'] },
      }),
    );
    const list = await mcp(['list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/✓ tiny \(.*\(stdio\), user\) - connected/);
    expect(list.stdout).toMatch(/- off \(.*\(stdio\), user\): disabled by mcp\.excluded/);
    expect(list.stdout).toMatch(
      /- outside \(http:\/\/127\.0\.0\.1:9\/mcp \(http, sse fallback\), user\): disabled: not in mcp\.allowed/,
    );

    const untrusted = await runKodo(['mcp', 'list'], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, KODO_TRUST_WORKSPACE: undefined },
    });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(untrusted.stdout).toMatch(/- tiny \(.*\(stdio\), user\): not started: this folder is not trusted/);
    expect(untrusted.stdout).toMatch(/- off \(.*\): disabled by mcp\.excluded/);
  });

  it('explains its usage on a mistake', async () => {
    const run = await mcp(['add', 'only-a-name']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('[ERROR] kodo mcp add needs a name and a command or URL (see kodo mcp --help)\n');
    expect((await mcp(['list'])).stdout).toContain('No MCP servers configured.');
  });
});
