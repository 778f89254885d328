// Runs the freshly built `kodo -p` once, against a throw-away local server that answers like the
// Gemini API (one tool call, then text), so the CommonJS chunks on the start-up path leave their
// V8 code cache behind (packages/cli/src/code-cache.ts writes it when the run exits). A failure
// here costs only speed, so it warns instead of failing the build.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPLIES = [
  [{ functionCall: { name: 'list_directory', args: { dir_path: '.' } } }],
  [{ text: 'Warm.' }],
];

/** A discovery snapshot is kept only of files older than this (see discovery-snapshot.ts). */
const SNAPSHOT_RACY_WINDOW_MS = 2000;

/**
 * Writes the warm-up's files. Called when the build starts, so that by the time the runs start
 * the files are older than the racy window: the first run leaves a discovery snapshot, and the
 * next takes its setup from it, as the runs of a user whose setup did not change do.
 * @returns {{ scratch: string, writtenAt: number }}
 */
export function prepareWarmUp() {
  const scratch = mkdtempSync(join(tmpdir(), 'kodo-warm-'));
  writeWarmUpFiles(scratch);
  return { scratch, writtenAt: Date.now() };
}

/** @param {{ kodoEntry: string, prepared: { scratch: string, writtenAt: number } }} options */
export async function warmCodeCache({ kodoEntry, prepared }) {
  const { scratch } = prepared;
  const kodoHome = join(scratch, '.kodo');
  const wait = prepared.writtenAt + SNAPSHOT_RACY_WINDOW_MS + 100 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  let served = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const parts = REPLIES[Math.min(served, REPLIES.length - 1)];
      served += 1;
      const chunk = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
      };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  try {
    // A prompt, then a custom command (its files are read only for a `/` prompt). Each warm-up
    // run rewrites every cache (KODO_CODE_CACHE=warm-up) with what it and the runs before
    // compiled. A first run without code caching fills kodo's cache of parsed skill and agent
    // files and leaves a discovery snapshot, so the prompt run takes its setup from the snapshot
    // as users' runs do: the code that discovers and parses (needed only after a change) is not
    // deserialised on every start. The command run has no snapshot of its own yet, so it
    // discovers (through the parse cache), and the discovery code is cached for such runs.
    const runs = [
      { prompt: 'warm up', codeCache: 'off' },
      { prompt: 'warm up', codeCache: 'warm-up' },
      { prompt: '/warm now', codeCache: 'warm-up' },
    ];
    for (const { prompt, codeCache } of runs) {
      served = 0;
      // Asynchronous, so this process's event loop serves the requests while kodo runs.
      const child = spawn(process.execPath, [kodoEntry, '-p', prompt], {
        cwd: scratch,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: scratch,
          KODO_HOME: kodoHome,
          KODO_TRUST_WORKSPACE: 'true',
          GEMINI_API_KEY: 'warm-up',
          GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`,
          KODO_CODE_CACHE: codeCache,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text) => {
        stderr += text;
      });
      const code = await new Promise((resolve) => child.on('close', resolve));
      if (code !== 0) process.stderr.write(`warning: code cache warm-up run exited ${code}: ${stderr}\n`);
    }
  } finally {
    server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** @param {string} scratch */
function writeWarmUpFiles(scratch) {
  const kodoHome = join(scratch, '.kodo');
  // One file of each kind kodo discovers, in both families' layouts (skills, agents with a YAML
  // list and with Claude tool names, an extension with a context file, commands in TOML and
  // Markdown), so the code that finds and parses them is cached too: a user who has such files
  // starts as fast as one who has none.
  const write = (path, text) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  write(
    join(kodoHome, 'skills', 'warm', 'SKILL.md'),
    '---\nname: warm\ndescription: Warms the cache.\n---\nBody.\n',
  );
  write(
    join(scratch, '.claude', 'skills', 'warm-claude', 'SKILL.md'),
    '---\nname: warm-claude\ndescription: Warms the cache too.\n---\nBody.\n',
  );
  write(
    join(kodoHome, 'agents', 'warm.md'),
    '---\nname: warm\ndescription: Warms.\ntools:\n  - read_file\n---\nBody.\n',
  );
  write(
    join(scratch, '.claude', 'agents', 'warm-claude.md'),
    '---\nname: warm-claude\ndescription: Warms.\ntools: Read, Grep, Glob\nmodel: inherit\n---\nBody.\n',
  );
  const extension = join(kodoHome, 'extensions', 'warm-extension');
  write(
    join(extension, 'gemini-extension.json'),
    JSON.stringify({ name: 'warm-extension', version: '1.0.0', contextFileName: 'CONTEXT.md' }),
  );
  write(join(extension, 'CONTEXT.md'), 'Warm context.\n');
  write(join(extension, 'commands', 'run.toml'), 'description = "Run"\nprompt = "Run {{args}}"\n');
  write(
    join(extension, 'skills', 'warm-extension-skill', 'SKILL.md'),
    '---\nname: warm-ext\ndescription: Warms.\n---\nBody.\n',
  );
  write(join(kodoHome, 'commands', 'warm.toml'), 'description = "Warm"\nprompt = "Warm {{args}}"\n');
  write(join(scratch, '.claude', 'commands', 'warm-md.md'), '---\ndescription: Warm\n---\nWarm $ARGUMENTS\n');
}
