// Deferred tools: the size of the first model request of `kodo -p` with 100 MCP tools (the
// testkit's tiny server: its 7 tools and 93 generated ones shaped like a real API server's),
// with every tool declared (`tools.toolSearch.enabled: false`, kodo before deferral) and with
// MCP tools deferred behind tool_search (the default past 40 declared tools).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { geminiTextReply, startGeminiMock, tinyServerEntry } from '@kodo/testkit';
import { headlessBenchEnv } from './headless-env';
import { printTable } from './table';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KODO_BIN = join(root, 'packages', 'cli', 'bin', 'kodo.cjs');
const home = mkdtempSync(join(tmpdir(), 'kodo-bench-deferred-home-'));
const mock = await startGeminiMock();

interface Body {
  systemInstruction?: unknown;
  tools?: { functionDeclarations: { name: string }[] }[];
}

async function firstRequest(toolSearch: boolean, extraArgs: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), 'kodo-bench-deferred-'));
  mkdirSync(join(cwd, '.kodo'));
  writeFileSync(
    join(cwd, '.kodo', 'settings.json'),
    JSON.stringify({
      mcpServers: { tiny: { ...tinyServerEntry(['--extra-tools=93']), trust: true } },
      tools: { toolSearch: { enabled: toolSearch } },
    }),
  );
  mock.push({ chunks: geminiTextReply('ok') });
  const before = mock.requests.length;
  const child = spawn(process.execPath, [KODO_BIN, '-p', 'hi', ...extraArgs], {
    cwd,
    env: headlessBenchEnv(home, mock.url),
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  rmSync(cwd, { recursive: true, force: true });
  if (code !== 0) throw new Error(`kodo exited ${code}`);
  const body = mock.requests[before]!.body as Body;
  const declarations = body.tools?.[0]?.functionDeclarations ?? [];
  return {
    bytes: JSON.stringify(body).length,
    toolBytes: JSON.stringify(body.tools ?? []).length,
    declared: declarations.length,
    mcp: declarations.filter((tool) => tool.name.startsWith('mcp_')).length,
  };
}

try {
  const rows: string[][] = [];
  for (const [label, args] of [
    ['default mode', []],
    ['--yolo (every built-in)', ['--yolo']],
  ] as const) {
    const all = await firstRequest(false, [...args]);
    const deferred = await firstRequest(true, [...args]);
    for (const [name, run] of [
      ['all declared', all],
      ['deferred', deferred],
    ] as const) {
      rows.push([
        `${label}, ${name}`,
        String(run.declared),
        String(run.mcp),
        (run.toolBytes / 1024).toFixed(1),
        (run.bytes / 1024).toFixed(1),
        name === 'deferred' ? `${((1 - deferred.bytes / all.bytes) * 100).toFixed(0)} % smaller` : '',
      ]);
    }
  }
  printTable(['first request, 100 MCP tools', 'declared', 'MCP', 'tools (KB)', 'body (KB)', ''], rows);
} finally {
  await mock.close();
  rmSync(home, { recursive: true, force: true });
}
