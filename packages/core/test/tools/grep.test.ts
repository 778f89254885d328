import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { rgPath } from '@vscode/ripgrep';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool, grepTool } from '../../src/tools/builtin/grep';
import type { GrepBackend, GrepQuery } from '../../src/tools/grep/backend';
import { GitGrepBackend } from '../../src/tools/grep/git-backend';
import { RipgrepBackend } from '../../src/tools/grep/rg-backend';
import { autoGrepBackends } from '../../src/tools/grep/select';
import { buildError, outsideWithLinks, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace({
    'src/app.ts': 'import x from "y";\nfunction main() {\n  return TODO;\n}\n',
    'src/util.ts': '// TODO: tidy\nexport const todo = 1;\n',
    'README.md': 'Nothing to see\n',
  });
});
afterEach(() => ws.cleanup());

const grep = (args: Record<string, unknown>) => runTool(grepTool, args, ws.ctx);

/** An executable shell script in the workspace (a stand-in for rg or git). */
function script(name: string, body: string): string {
  const path = ws.write(`.bin/${name}`, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe('grep_search', () => {
  it('shows 15 lines around each match when 2-3 lines match', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => (i === 19 || i === 39 ? `hit ${i + 1}` : `l${i + 1}`));
    ws.write('two.txt', `${lines.join('\n')}\n`);
    const result = text(await grep({ pattern: '^hit' }));
    const shown = result
      .split('\n')
      .filter((line) => /^L\d+/.test(line))
      .map((line) => line.split(' ')[0]);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const expected = [...range(5, 55)].map((n) => (n === 20 || n === 40 ? `L${n}:` : `L${n}-`));
    expect(shown).toEqual(expected);
    expect(result.split('\n')[0]).toBe('Found 2 matches for pattern "^hit" in path ".":');
  });

  it('adds no context for 4 or more matches, nor with names_only or context: 0', async () => {
    ws.write('four.txt', 'a\nhit\nb\nhit\nc\nhit\nd\nhit\ne\n');
    expect(text(await grep({ pattern: 'hit', dir_path: 'four.txt' }))).not.toContain('L1-');
    expect(text(await grep({ pattern: 'tidy', context: 0 }))).not.toContain('L2-');
    expect(text(await grep({ pattern: 'tidy', names_only: true }))).toBe(
      'Found 1 files with matches for pattern "tidy" in path ".":\nsrc/util.ts',
    );
  });

  it('takes before/after over context', async () => {
    ws.write('n.txt', 'l1\nl2\nl3\nhit\nl5\nl6\nl7\n');
    expect(text(await grep({ pattern: 'hit', dir_path: 'n.txt', context: 2, after: 0 }))).toBe(
      'Found 1 match for pattern "hit" in path "n.txt":\n---\nFile: n.txt\nL2- l2\nL3- l3\nL4: hit\n---',
    );
  });

  it('shows a long line as a window around the match, cut between graphemes', async () => {
    ws.write('min.js', `${'a'.repeat(3000)}needle${'b'.repeat(3000)}\n`);
    const result = text(await grep({ pattern: 'needle', include_pattern: '*.js', context: 0 }));
    expect(result).toContain(
      `L1: [2,800 characters cut] ${'a'.repeat(200)}needle${'b'.repeat(1794)} [1,206 characters cut]\n`,
    );
    ws.write('flags.txt', `${'🇫🇷'.repeat(2001)} needle\n`);
    const flags = text(await grep({ pattern: 'needle', dir_path: 'flags.txt', context: 0 }));
    // Each flag is four UTF-16 units: the cut falls before a whole flag, never inside one.
    // Near the end the window keeps its full size, so it starts earlier.
    expect(flags).toContain(`L1: [6,008 characters cut] ${'🇫🇷'.repeat(499)} needle\n`);
  });

  it('validates parameters', () => {
    expect(buildError(grepTool, {}, ws.ctx)?.message).toBe("params must have required property 'pattern'");
    expect(buildError(grepTool, { pattern: '(' }, ws.ctx)?.message).toMatch(
      /^Invalid regular expression pattern provided: \(\. Error: /,
    );
    expect(buildError(grepTool, { pattern: 'x', exclude_pattern: '[' }, ws.ctx)?.message).toMatch(
      /^Invalid regular expression pattern provided: \[\. Error: /,
    );
    expect(buildError(grepTool, { pattern: '(', fixed_strings: true }, ws.ctx)).toBeUndefined();
    expect(buildError(grepTool, { pattern: '' }, ws.ctx)?.message).toBe(
      "The 'pattern' parameter cannot be empty.",
    );
    for (const bad of [
      { total_max_matches: 0 },
      { max_matches_per_file: 0 },
      { context: -1 },
      { after: 1.5 },
    ]) {
      expect(buildError(grepTool, { pattern: 'x', ...bad }, ws.ctx)?.type).toBe('invalid_tool_params');
    }
    expect(buildError(grepTool, { pattern: 'x', dir_path: 'nope' }, ws.ctx)).toEqual({
      type: 'file_not_found',
      message: `Path does not exist: ${join(ws.root, 'nope')}`,
    });
  });

  it('reports backend failures as an ordinary result', async () => {
    const broken: GrepBackend = {
      name: 'broken',
      search: async () => {
        throw new Error('boom');
      },
    };
    const result = await runTool(createGrepTool({ backend: broken }), { pattern: 'x' }, ws.ctx);
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe('Error during grep search operation: boom');
  });

  it("reports ripgrep's own pattern errors the same way", async () => {
    // A literal `k` to JavaScript, an error to both of rg's regex engines.
    const result = text(await grep({ pattern: '\\k' }));
    expect(result).toMatch(/^Error during grep search operation: (rg: )?regex could not be compiled/);
  });

  it('hands the query to a swappable backend', async () => {
    let seen: GrepQuery | undefined;
    const fake: GrepBackend = {
      name: 'fake',
      search: async (query) => {
        seen = query;
        return [{ filePath: join(ws.root, 'src/app.ts'), lineNumber: 7, line: 'hello' }];
      },
    };
    const result = await runTool(
      createGrepTool({ backend: fake }),
      { pattern: 'h', names_only: true },
      ws.ctx,
    );
    expect(text(result)).toBe('Found 1 files with matches for pattern "h" in path ".":\nsrc/app.ts');
    expect(seen).toMatchObject({
      searchPath: ws.root,
      workspaceRoot: ws.root,
      maxTotal: 100,
      maxPerFile: 1,
      respectIgnoreFiles: true,
      caseSensitive: false,
      fixedStrings: false,
    });
  });

  it('times out after the configured time and kills the search process', async () => {
    const pidFile = join(ws.root, 'rg.pid');
    const slowRg = script('slow-rg', `echo $$ > '${pidFile}'\nexec sleep 30`);
    const tool = createGrepTool({ backend: new RipgrepBackend(slowRg), timeoutMs: 300 });
    const started = Date.now();
    const result = await runTool(tool, { pattern: 'x' }, ws.ctx);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.error).toEqual({
      type: 'grep_execution_error',
      message:
        "Operation timed out after 300ms. In large repositories, consider narrowing your search scope by specifying a 'dir_path' or an 'include_pattern'.",
    });
    expect(await waitUntilGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  it('kills the search process when the call is aborted', async () => {
    const pidFile = join(ws.root, 'rg.pid');
    const slowRg = script('slow-rg', `echo $$ > '${pidFile}'\nexec sleep 30`);
    const controller = new AbortController();
    const tool = createGrepTool({ backend: new RipgrepBackend(slowRg) });
    const running = runTool(tool, { pattern: 'x' }, ws.ctx, { signal: controller.signal });
    for (let i = 0; i < 200 && !readFileSafe(pidFile); i++) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    expect(text(await running)).toBe('Search for "x" was cancelled.');
    expect(await waitUntilGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  it('stops ripgrep once the match cap is reached', async () => {
    // A fake rg that prints two matches, then would run for 30 s: the tool must not wait.
    const match = (n: number) =>
      JSON.stringify({
        type: 'match',
        data: { path: { text: 'src/app.ts' }, lines: { text: `hit ${n}\n` }, line_number: n },
      });
    const chatty = script(
      'chatty-rg',
      `printf '%s\\n' '${match(1)}' '{"type":"match","da' '${match(2)}'\nexec sleep 30`,
    );
    const tool = createGrepTool({ backend: new RipgrepBackend(chatty) });
    const started = Date.now();
    const result = text(await runTool(tool, { pattern: 'hit', total_max_matches: 2, context: 0 }, ws.ctx));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result).toBe(
      'Found 2 matches for pattern "hit" in path "." (results limited to 2 matches for performance):\n---\nFile: src/app.ts\nL1: hit 1\nL2: hit 2\n---',
    );
  });

  it('retries git grep with extended regexes when git has no PCRE', async () => {
    execFileSync('git', ['init', '-q', ws.root]);
    const log = join(ws.root, 'git-calls.log');
    const noPcreGit = script(
      'git-no-pcre',
      `echo "$*" >> '${log}'\ncase " $* " in *" -P "*) echo "fatal: cannot use Perl-compatible regexes when not compiled with USE_LIBPCRE" >&2; exit 128;; esac\nexec git "$@"`,
    );
    const tool = createGrepTool({ backend: new GitGrepBackend(noPcreGit) });
    expect(text(await runTool(tool, { pattern: 'tid[y]', context: 0 }, ws.ctx))).toContain(
      'L1: // TODO: tidy',
    );
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(2);
    expect(calls[1]).toContain(' -E ');
  });

  describe('backend choice', () => {
    const pick = (choice: ReturnType<typeof autoGrepBackends>) =>
      choice.pick({ searchPath: ws.root, env: ws.ctx.env, signal: new AbortController().signal });

    it('uses the ripgrep binary that ships with kodo', async () => {
      expect((await pick(autoGrepBackends())).name).toBe('ripgrep');
    });

    it('skips rg binaries that are missing or are not ripgrep, probing once per tool', async () => {
      const log = join(ws.root, 'probes.log');
      const impostor = script('rg', `echo probe >> '${log}'\necho "grep (GNU grep) 3.11"`);
      const candidates = async () => [join(ws.root, 'missing-rg'), impostor, rgPath];
      const choice = autoGrepBackends({ ripgrepCandidates: candidates });
      const picked = await Promise.all([pick(choice), pick(choice), pick(choice)]);
      expect(picked.map((backend) => backend.name)).toEqual(['ripgrep', 'ripgrep', 'ripgrep']);
      expect(readFileSync(log, 'utf8')).toBe('probe\n');
    });

    it('falls back to git grep inside a repository, else to the JavaScript scan', async () => {
      const noRg = autoGrepBackends({ ripgrepCandidates: async () => [join(ws.root, 'missing-rg')] });
      expect((await pick(noRg)).name).toBe('javascript');
      execFileSync('git', ['init', '-q', ws.root]);
      expect((await pick(noRg)).name).toBe('git grep');
      const noGit = autoGrepBackends({
        ripgrepCandidates: async () => [],
        git: join(ws.root, 'missing-git'),
      });
      expect((await pick(noGit)).name).toBe('javascript');
    });

    it('gives the same answer through every fallback', async () => {
      execFileSync('git', ['init', '-q', ws.root]);
      const noRg = autoGrepBackends({ ripgrepCandidates: async () => [] });
      const viaGit = await runTool(createGrepTool({ backend: noRg }), { pattern: 'todo' }, ws.ctx);
      expect(text(viaGit)).toBe(text(await grep({ pattern: 'todo' })));
    });
  });

  describe('hostile input', () => {
    it('refuses a dir_path outside the workspace', () => {
      for (const dir_path of ['..', '/etc', 'src/../..']) {
        expect(buildError(grepTool, { pattern: 'x', dir_path }, ws.ctx)?.type).toBe('path_not_in_workspace');
      }
    });

    it('refuses symlinks that lead outside as dir_path', () => {
      const outside = outsideWithLinks(ws.root);
      try {
        expect(buildError(grepTool, { pattern: 'x', dir_path: 'link-dir' }, ws.ctx)?.type).toBe(
          'path_not_in_workspace',
        );
        expect(buildError(grepTool, { pattern: 'x', dir_path: 'link-file' }, ws.ctx)?.type).toBe(
          'path_not_in_workspace',
        );
      } finally {
        outside.cleanup();
      }
    });

    it('treats a pattern that looks like a flag as a pattern', async () => {
      ws.write('flags.txt', 'use --files here\n');
      expect(text(await grep({ pattern: '--files', context: 0 }))).toContain('L1: use --files here');
    });
  });
});

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
