/**
 * The package as people install it: `npm pack` of the built cli, installed from the tarball into a
 * fresh folder outside the checkout, then the installed `kodo` run there. Nothing from the
 * workspace's node_modules can help it: the shell parser's WebAssembly and ripgrep must come
 * with the package (its files and declared dependencies).
 *
 * Offline: the install is `npm ci --offline` from a lock file written from the package's own
 * shrinkwrap (the versions the workspace locks), so npm takes every tarball from its cache,
 * where the workspace's install left them.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cliDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = join(cliDir, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let root: string;
let installed: string;
let bin: string;
let toolsPath: string;

/** The project that installs the tarball: its package.json and a lock npm can follow offline. */
async function writeInstallingProject(dir: string, tarball: string): Promise<void> {
  const script = pathToFileURL(join(repoRoot, 'scripts', 'cli-pack-files.mjs')).href;
  const { cliShrinkwrap } = (await import(script)) as {
    cliShrinkwrap(): { packages: Record<string, Record<string, unknown>> };
  };
  const { '': self, ...dependencies } = cliShrinkwrap().packages;
  const spec = `file:${tarball}`;
  const { name: _name, ...kodo } = self!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: { kodo: spec } }));
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { dependencies: { kodo: spec } },
        'node_modules/kodo': { ...kodo, resolved: spec },
        ...dependencies,
      },
    }),
  );
}

/** A PATH with node, git and bash only: no system ripgrep to stand in for the package's. */
function toolsOnlyPath(dir: string): string {
  mkdirSync(dir);
  symlinkSync(process.execPath, join(dir, 'node'));
  for (const tool of ['git', 'bash']) {
    const found = (process.env.PATH ?? '')
      .split(delimiter)
      .map((entry) => join(entry, tool))
      .find((path) => existsSync(path));
    if (found) symlinkSync(found, join(dir, tool));
  }
  return dir;
}

function runInstalled(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: {
        PATH: toolsPath,
        HOME: join(root, 'home'),
        KODO_HOME: join(root, 'home', '.kodo'),
        KODO_TRUST_WORKSPACE: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A --fake-responses script: one tool call, then a closing answer. */
function script(dir: string, name: string, args: Record<string, unknown>): string {
  const turn = (parts: unknown[]) =>
    JSON.stringify({
      method: 'generateContentStream',
      response: [
        { candidates: [{ content: { role: 'model', parts }, index: 0 }] },
        {
          candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
        },
      ],
    });
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, `${turn([{ functionCall: { name, args } }])}\n${turn([{ text: 'Done.' }])}\n`);
  return file;
}

const toolResults = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((event) => event.type === 'tool_result');

beforeAll(async () => {
  if (!existsSync(join(cliDir, 'dist', 'kodo.cjs'))) throw new Error('Run npm run build first.');
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-install-')));
  // `npm pack` as a release runs it: the prepack script adds the shrinkwrap.
  execFileSync(npm, ['pack', '--silent', '--pack-destination', root], { cwd: cliDir, stdio: 'ignore' });
  const tarball = join(root, readdirSync(root).find((name) => name.endsWith('.tgz'))!);
  const project = join(root, 'installed');
  mkdirSync(project);
  await writeInstallingProject(project, tarball);
  execFileSync(npm, ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: project,
    stdio: 'ignore',
  });
  installed = join(project, 'node_modules', 'kodo');
  bin = join(project, 'node_modules', '.bin', 'kodo');
  toolsPath = toolsOnlyPath(join(root, 'tools'));
  mkdirSync(join(root, 'home'));
}, 180_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A git repository to work in, outside the checkout. */
function workspace(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(join(dir, 'notes.txt'), 'alpha beta\ngamma beta\n');
  return dir;
}

describe('the installed package', () => {
  it('is a copy, not a link to the checkout, and prints its version', async () => {
    expect(realpathSync(installed).startsWith(realpathSync(repoRoot))).toBe(false);
    const run = await runInstalled(['--version'], root);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(run.code).toBe(0);
  });

  it('runs a shell command that --allowed-tools allows (the shell parser loads)', async () => {
    const dir = workspace('shell');
    const fixture = script(dir, 'run_shell_command', { command: 'git status' });
    const run = await runInstalled(
      [
        '-p',
        'x',
        '-o',
        'stream-json',
        '--allowed-tools',
        'run_shell_command(git status)',
        '--fake-responses',
        fixture,
      ],
      dir,
    );
    expect(run.stderr).toBe('');
    const [result] = toolResults(run.stdout);
    expect(result).toMatchObject({ status: 'success' });
    expect(result.output).toContain('No commits yet');
  });

  it('greps with the ripgrep it installed (a look-behind, which only ripgrep answers)', async () => {
    const dir = workspace('grep');
    // Outside a git work tree nothing but ripgrep or the JavaScript scan could answer, and
    // the scan (RE2) refuses look-around.
    rmSync(join(dir, '.git'), { recursive: true });
    const fixture = script(dir, 'grep_search', { pattern: '(?<=alpha )beta' });
    const run = await runInstalled(['-p', 'x', '-o', 'stream-json', '--fake-responses', fixture], dir);
    const [result] = toolResults(run.stdout);
    // Of the two lines holding "beta", only the one after "alpha ".
    expect(result).toMatchObject({ status: 'success', output: 'Found 1 match' });
  });

  it('says in one line when the shell parser cannot load', async () => {
    const wasm = join(installed, 'dist', 'wasm');
    renameSync(wasm, `${wasm}.away`);
    try {
      const dir = workspace('no-parser');
      const fixture = script(dir, 'run_shell_command', { command: 'git status' });
      const run = await runInstalled(
        [
          '-p',
          'x',
          '-o',
          'stream-json',
          '--allowed-tools',
          'run_shell_command(git status)',
          '--fake-responses',
          fixture,
        ],
        dir,
      );
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^\[WARNING\] The shell parser could not load \(.*tree-sitter-bash\.wasm.*\); every shell command needs approval\.$/,
      );
      expect(toolResults(run.stdout)[0]).toMatchObject({ status: 'error' });
    } finally {
      renameSync(`${wasm}.away`, wasm);
    }
  });
});
