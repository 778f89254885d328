import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * MCP servers for tests: kodo's tiny server (crash, slow start, list changes) and the reference
 * servers installed from npm, as `command` + `args` for an `mcpServers` entry.
 */
export const TINY_MCP_SERVER = join(
  // Bundled callers (the benchmarks) set KODO_CLI_DIR; from source the path follows this file.
  process.env.KODO_CLI_DIR
    ? join(process.env.KODO_CLI_DIR, '..', 'testkit', 'src', 'mcp')
    : dirname(fileURLToPath(import.meta.url)),
  'tiny-server.mjs',
);

const require = createRequire(import.meta.url);

/** `@modelcontextprotocol/server-everything`'s entry script (run with `stdio`, `sse` or `streamableHttp`). */
export function everythingServerPath(): string {
  return join(
    dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
    'dist',
    'index.js',
  );
}

/** `@modelcontextprotocol/server-filesystem`'s entry script (arguments: allowed directories). */
export function filesystemServerPath(): string {
  return join(
    dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
    'dist',
    'index.js',
  );
}

/** An `mcpServers` entry for the tiny server, with its options (`--start-delay=…`). */
export function tinyServerEntry(options: string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: [TINY_MCP_SERVER, ...options] };
}

export interface RunningMcpServer {
  /** The MCP endpoint: `/mcp` for Streamable HTTP, `/sse` for SSE. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the reference "everything" server over HTTP on a free loopback port and waits until it
 * listens. `streamableHttp` serves `/mcp`; `sse` serves the older SSE transport at `/sse`.
 */
export async function startEverythingHttpServer(mode: 'streamableHttp' | 'sse'): Promise<RunningMcpServer> {
  const { spawn } = await import('node:child_process');
  const port = await freePort();
  const child = spawn(process.execPath, [everythingServerPath(), mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`everything server did not start: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`everything server exited (${code}): ${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export * from './oauth-mcp-server';
