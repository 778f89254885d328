import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  geminiFunctionCallReply,
  geminiTextReply,
  KODO_BIN,
  type KodoRun,
  type OAuthMcpServer,
  runKodo,
  startGeminiMock,
  startOAuthMcpServer,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();
let oauth: OAuthMcpServer | undefined;
afterEach(async () => {
  await oauth?.close();
  oauth = undefined;
});

/**
 * `kodo mcp auth <name>` with no browser on the machine (no $BROWSER, no display): the test reads
 * the printed URL and plays the browser itself, following the authorization server's redirect
 * to kodo's loopback listener.
 */
function signIn(name: string, env: Record<string, string | undefined>): Promise<KodoRun & { url: string }> {
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', KODO_TRUST_WORKSPACE: 'true' };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KODO_BIN, 'mcp', 'auth', name], {
      cwd: dirs.workspace,
      env: childEnv,
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    let url = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = /^ {2}(http\S+)$/m.exec(stdout)?.[1];
      if (found && !url) {
        url = found;
        void (async () => {
          const answer = await fetch(url, { redirect: 'manual' });
          await fetch(answer.headers.get('location')!);
        })().catch(reject);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, url });
    });
    child.stdin.end();
  });
}

function filesUnder(root: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

describe('MCP OAuth from the command line', () => {
  it('a session asks for `kodo mcp auth`; after signing in, it uses and refreshes the tokens, which appear in no log, session file or telemetry', async () => {
    oauth = await startOAuthMcpServer();
    const telemetry = join(dirs.home, 'telemetry.json');
    mkdirSync(join(dirs.workspace, '.kodo'));
    writeFileSync(
      join(dirs.workspace, '.kodo', 'settings.json'),
      JSON.stringify({
        mcpServers: { remote: { url: oauth.url, type: 'http', trust: true } },
        telemetry: { enabled: true, outfile: telemetry, logPrompts: true },
      }),
    );

    // Headless, not signed in: a clear warning naming the command, and no tool.
    const first = await startGeminiMock({ script: [{ chunks: geminiTextReply('No tools.') }] });
    try {
      const run = await runKodo(['-p', 'hi'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, first.url),
        timeoutMs: 30_000,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("MCP server 'remote' failed to connect");
      expect(run.stderr).toContain('kodo mcp auth remote');
      expect(oauth.registrations).toEqual([]);
    } finally {
      await first.close();
    }

    const auth = await signIn('remote', { KODO_HOME: dirs.home, HOME: dirs.home });
    expect(auth.code, auth.stderr).toBe(0);
    expect(new URL(auth.url).pathname).toBe('/authorize');
    expect(auth.stdout).toContain("Signed in to MCP server 'remote' (scope: mcp)");
    const file = join(dirs.home, 'mcp-oauth', 'remote.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(oauth.accessTokens).toHaveLength(1);

    // The session's token has expired: the SDK refreshes it on the server's 401.
    oauth.expireAccessTokens();
    const mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_remote_whoami', {}) },
        { chunks: geminiTextReply('Signed in.') },
      ],
    });
    let run: KodoRun;
    try {
      run = await runKodo(['-p', 'who am I', '-d', '-o', 'stream-json'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
        timeoutMs: 30_000,
      });
      expect(run.code, run.stderr).toBe(0);
      const second = JSON.stringify(mock.requests[1]!.body);
      expect(second).toContain('signed in with access token #2');
    } finally {
      await mock.close();
    }
    expect(oauth.requests.some((request) => request.body?.grant_type === 'refresh_token')).toBe(true);
    expect(oauth.accessTokens).toHaveLength(2);

    // Every token issued, searched for everywhere kodo writes except the sign-in file itself.
    const secrets = [...oauth.accessTokens, ...oauth.refreshTokens];
    const written = [...filesUnder(dirs.home), ...filesUnder(dirs.workspace)].filter((path) => path !== file);
    expect(written.some((path) => path.includes('debug-'))).toBe(true);
    expect(written).toContain(telemetry);
    expect(written.some((path) => path.endsWith('.jsonl') && !path.includes('debug-'))).toBe(true);
    for (const path of written) {
      const text = readFileSync(path, 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${secret} in ${path}`).toBe(false);
    }
    for (const output of [run.stdout, run.stderr, auth.stdout, auth.stderr]) {
      for (const secret of secrets) expect(output).not.toContain(secret);
    }
    // The sign-in file does hold the current tokens (so the search above looked for real values).
    expect(readFileSync(file, 'utf8')).toContain(oauth.accessTokens[1]!);
  });

  it('kodo mcp auth explains what is wrong with a name it does not know, or a stdio server', async () => {
    mkdirSync(join(dirs.workspace, '.kodo'));
    writeFileSync(
      join(dirs.workspace, '.kodo', 'settings.json'),
      JSON.stringify({ mcpServers: { local: { command: 'node' } } }),
    );
    const env = { KODO_HOME: dirs.home };
    const unknown = await runKodo(['mcp', 'auth', 'nope'], { cwd: dirs.workspace, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No MCP server 'nope' in the settings (configured: local)");
    const stdio = await runKodo(['mcp', 'auth', 'local'], { cwd: dirs.workspace, env });
    expect(stdio.code).toBe(1);
    expect(stdio.stderr).toContain('OAuth is for remote (http or sse) servers');
    const help = await runKodo(['mcp', 'auth', '--help'], { cwd: dirs.workspace, env });
    expect(help.stdout).toContain('Usage: kodo mcp auth');
  });
});
