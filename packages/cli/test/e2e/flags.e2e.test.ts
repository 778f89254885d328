/**
 * What a person switching from Gemini CLI meets at the command line: help for every subcommand,
 * one-line usage errors, `--include-directories`, `--allowed-tools`, and the flags kodo lacks.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOnPath, probeBwrap } from '@kodo/core/engine';
import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const dirs = e2eDirs();
const kodo = (args: string[], env: Record<string, string> = {}) =>
  runKodo(args, { cwd: dirs.workspace, env: { KODO_HOME: dirs.home, KODO_SANDBOX: 'false', ...env } });

const BWRAP = findOnPath('bwrap', process.env);
const bwrapWorks = BWRAP ? (await probeBwrap(BWRAP)).ok : false;

/** A recording whose one call is `call`, then a closing answer. */
function recording(name: string, call: Record<string, unknown>): string {
  const turn = (parts: unknown[]) =>
    JSON.stringify({
      method: 'generateContentStream',
      response: [
        { candidates: [{ content: { role: 'model', parts }, index: 0 }] },
        { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }] },
      ],
    });
  const file = join(dirs.root, name);
  writeFileSync(file, `${turn([{ functionCall: call }])}\n${turn([{ text: 'Done.' }])}\n`);
  return file;
}

describe('kodo --help and the subcommands', () => {
  it('lists every command and the flags a Gemini CLI user looks for', async () => {
    const run = await kodo(['--help']);
    expect(run.code).toBe(0);
    for (const shown of [
      'kodo hooks list|enable|disable',
      '-i, --prompt-interactive',
      '--fake-responses <file>',
      '--record-responses <file>',
      '--include-directories',
      '--allowed-tools',
    ]) {
      expect(run.stdout).toContain(shown);
    }
  });

  it.each([
    [['hooks', '--help'], 'Usage: kodo hooks <command>'],
    [['hooks', 'list', '-h'], 'Usage: kodo hooks <command>'],
    [['mcp', '--help'], 'Usage: kodo mcp <command>'],
    [['mcp', 'add', '--help'], 'Usage: kodo mcp add [options] <name> <command|url>'],
    [['mcp', 'remove', '--help'], 'Usage: kodo mcp remove [options] <name>'],
    [['mcp', 'list', '--help'], 'Usage: kodo mcp list'],
    [['demo', '--help'], 'Usage: kodo demo'],
  ])('kodo %j prints its own usage, exit 0', async (args, usage) => {
    const run = await kodo(args);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith(usage)).toBe(true);
    expect(run.stderr).toBe('');
  });

  it('answers a usage error with one line pointing to --help', async () => {
    const run = await kodo(['--no-such-flag']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("[ERROR] Unknown option '--no-such-flag' (see kodo --help)\n");
    const mcp = await kodo(['mcp', 'add', '--bogus', 'a', 'b']);
    expect(mcp.code).toBe(1);
    expect(mcp.stderr).toBe('[ERROR] Unknown option: --bogus (see kodo mcp --help)\n');
  });

  it.each([['--screen-reader'], ['--session-file=x']])(
    'says plainly that %s is not supported',
    async (flag) => {
      const run = await kodo(['-p', 'hi', flag]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^\[ERROR\] --\S+.* is a Gemini CLI flag that kodo does not support yet/);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    },
  );

  it('names --delete-session in its error', async () => {
    const run = await kodo(['--delete-session', '7']);
    expect(run.code).toBe(42);
    expect(run.stderr).toContain('Invalid session identifier "7" for --delete-session.');
    expect(run.stderr).toContain('--delete-session {number}');
    expect(run.stderr).not.toContain('--resume');
  });
});

describe('--allowed-tools', () => {
  it('runs the named tool headless without asking; without it the refusal says how to allow it', async () => {
    const refused = await kodo([
      '-p',
      'x',
      '-o',
      'stream-json',
      '--fake-responses',
      join(fixtures, 'needs-approval.jsonl'),
    ]);
    const result = refused.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((event) => event.type === 'tool_result');
    expect(result.error.message).toMatch(/^Tool "write_file" is not allowed in this mode/);
    expect(result.error.message).toContain('--allowed-tools write_file');
    expect(existsSync(join(dirs.workspace, 'blocked.txt'))).toBe(false);

    const allowed = await kodo([
      '-p',
      'x',
      '--allowed-tools',
      'read_file,write_file',
      '--fake-responses',
      join(fixtures, 'needs-approval.jsonl'),
    ]);
    expect(allowed.code).toBe(0);
    expect(readFileSync(join(dirs.workspace, 'blocked.txt'), 'utf8')).toBe('x');
  });

  it('allows one shell command prefix and still refuses others', async () => {
    const file = recording('shell.jsonl', {
      name: 'run_shell_command',
      args: { command: 'touch made-by-echo' },
    });
    const other = await kodo([
      '-p',
      'x',
      '--allowed-tools',
      'run_shell_command(echo)',
      '--fake-responses',
      file,
    ]);
    expect(other.code).toBe(0);
    expect(existsSync(join(dirs.workspace, 'made-by-echo'))).toBe(false);
    const touch = await kodo([
      '-p',
      'x',
      '--allowed-tools',
      'run_shell_command(touch)',
      '--fake-responses',
      file,
    ]);
    expect(touch.code).toBe(0);
    expect(existsSync(join(dirs.workspace, 'made-by-echo'))).toBe(true);
  });
});

describe('--include-directories', () => {
  it('lets the file tools use another root, and refuses it without the flag', async () => {
    const extra = join(dirs.root, 'shared-lib');
    mkdirSync(extra);
    const file = recording('write-extra.jsonl', {
      name: 'write_file',
      args: { file_path: join(extra, 'from-kodo.txt'), content: 'hi\n' },
    });
    const without = await kodo(['-p', 'x', '-y', '--fake-responses', file]);
    expect(without.code).toBe(0);
    expect(existsSync(join(extra, 'from-kodo.txt'))).toBe(false);
    const withFlag = await kodo([
      '-p',
      'x',
      '-y',
      '--include-directories',
      '../shared-lib',
      '--fake-responses',
      file,
    ]);
    expect(withFlag.code).toBe(0);
    expect(readFileSync(join(extra, 'from-kodo.txt'), 'utf8')).toBe('hi\n');
  });

  it('is an input error when the directory does not exist', async () => {
    const run = await kodo([
      '-p',
      'x',
      '--include-directories',
      'nope',
      '--fake-responses',
      join(fixtures, 'text-only.jsonl'),
    ]);
    expect(run.code).toBe(42);
    expect(run.stderr).toContain('--include-directories: nope is not a directory');
  });

  it.skipIf(!bwrapWorks)('binds the extra root writable in the sandbox', async () => {
    const extra = join(dirs.root, 'other-root');
    mkdirSync(extra);
    const file = recording('shell-extra.jsonl', {
      name: 'run_shell_command',
      args: { command: `echo sandboxed > ${join(extra, 'out.txt')}` },
    });
    const run = await kodo(
      ['-p', 'x', '-y', '-s', '--include-directories', extra, '--fake-responses', file],
      {
        KODO_SANDBOX: 'bwrap',
      },
    );
    expect(run.code).toBe(0);
    expect(readFileSync(join(extra, 'out.txt'), 'utf8')).toBe('sandboxed\n');
  });
});
