// MCP: what configured servers cost a headless run (launch → first model request, which waits for
// discovery), and in process: connecting (cold, SDK load included, and again) and one tool call.
// Budgets: a stdio server adds at most 400 ms before the first request (most of it the server's
// own Node startup); a tool call round trip stays under 5 ms; reconnecting (close, respawn,
// handshake, relist) under 250 ms.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everythingServerPath, geminiTextReply, startGeminiMock, tinyServerEntry } from '@kodo/testkit';
import { resolveMcpServers } from '../packages/core/src/mcp/config';
import { McpManager } from '../packages/core/src/mcp/manager';
import { ToolRegistry } from '../packages/core/src/tools/registry';
import { Workspace } from '../packages/core/src/tools/workspace';
import { headlessBenchEnv } from './headless-env';
import { fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const CALLS = 200;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KODO_BIN = join(root, 'packages', 'cli', 'bin', 'kodo.cjs');

const mock = await startGeminiMock();
const home = mkdtempSync(join(tmpdir(), 'kodo-bench-mcp-home-'));

interface Case {
  label: string;
  cwd: string;
}

function project(label: string, mcpServers?: Record<string, unknown>): Case {
  const cwd = mkdtempSync(join(tmpdir(), 'kodo-bench-mcp-'));
  if (mcpServers) {
    mkdirSync(join(cwd, '.kodo'));
    writeFileSync(join(cwd, '.kodo', 'settings.json'), JSON.stringify({ mcpServers }));
  }
  return { label, cwd };
}

const cases = [
  project('no MCP servers'),
  project('tiny stdio server', { tiny: tinyServerEntry() }),
  project('server-everything (stdio)', {
    everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] },
  }),
];

async function firstRequestMs(c: Case): Promise<number> {
  mock.push({ chunks: geminiTextReply('ok') });
  const before = mock.requests.length;
  const started = performance.now();
  const child = spawn(process.execPath, [KODO_BIN, '-p', 'hi'], {
    cwd: c.cwd,
    env: headlessBenchEnv(home, mock.url),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`kodo exited ${code}: ${stderr}`);
  const received = mock.requests[before]?.receivedAt;
  if (received === undefined) throw new Error('no request reached the mock');
  return received - started;
}

const samples = new Map<Case, number[]>(cases.map((c) => [c, []]));
for (let round = 0; round < RUNS + 2; round += 1) {
  for (const c of cases) {
    const ms = await firstRequestMs(c);
    if (round >= 2) samples.get(c)!.push(ms);
  }
}
const baseline = median(samples.get(cases[0]!)!);
const startupRows = cases.map((c) => {
  const ms = median(samples.get(c)!);
  const added = ms - baseline;
  const verdict = c === cases[0] ? '—' : c.label.startsWith('tiny') ? (added <= 400 ? 'yes' : 'NO') : 'n/a';
  return [c.label, fmt(ms), c === cases[0] ? '—' : `+${fmt(added)}`, verdict];
});
console.log(`Headless \`kodo -p hi\`, launch → first model request (median of ${RUNS}):\n`);
printTable(['configuration', 'first request (ms)', 'added (ms)', 'within 400 ms'], startupRows);

// In process: connect, reconnect, call.
const registry = new ToolRegistry();
const { servers } = resolveMcpServers({ servers: { tiny: tinyServerEntry() }, env: process.env });
const manager = new McpManager({ servers, registry, baseEnv: process.env, cwd: root });
let started = performance.now();
await manager.waitForDiscovery();
const coldMs = performance.now() - started;
const reconnects: number[] = [];
for (let i = 0; i < 5; i += 1) {
  started = performance.now();
  await manager.refresh('tiny');
  reconnects.push(performance.now() - started);
}
const echo = await registry.load('mcp_tiny_echo');
if (!echo) throw new Error(`the tiny server did not connect: ${JSON.stringify(manager.servers())}`);
const ctx = { workspace: new Workspace({ roots: [root] }), env: {}, shellInactivityTimeoutMs: 10_000 };
const calls: number[] = [];
for (let i = 0; i < CALLS; i += 1) {
  const built = echo.build({ text: `call ${i}` }, ctx);
  if (!built.ok) throw new Error(built.error.message);
  started = performance.now();
  const result = await built.invocation.execute({ signal: new AbortController().signal });
  calls.push(performance.now() - started);
  if (result.error) throw new Error(result.error.message);
}
await manager.dispose();
const reconnectMs = median(reconnects);
const callMs = median(calls);
console.log('\nIn process, tiny stdio server:\n');
printTable(
  ['step', 'ms', 'budget', 'met'],
  [
    ['first connect (SDK load + spawn + discovery)', fmt(coldMs), '—', '—'],
    ['reconnect (/mcp refresh), median of 5', fmt(reconnectMs), '250', reconnectMs <= 250 ? 'yes' : 'NO'],
    [`tool call round trip, median of ${CALLS}`, fmt(callMs, 2), '5', callMs <= 5 ? 'yes' : 'NO'],
  ],
);

await mock.close();
for (const c of cases) rmSync(c.cwd, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
