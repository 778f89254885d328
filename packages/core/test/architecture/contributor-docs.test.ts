import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The contributor docs name files a newcomer will open first; when a file moves, the doc must
 * move with it. Every repository path they cite (in backticks or as a link) has to exist.
 *
 * What counts as a cited path, so the rule is the same for every doc:
 * - a link's target that is not a URL or an anchor, resolved from the doc's own folder;
 * - a backticked string without spaces that starts with a repository folder (`packages/`,
 *   `docs/`, `scripts/`, `bench/`, `.ci/`, `examples/`) or a package (`core/`, `cli/`,
 *   `testkit/`), or that has a slash and a file extension (`agent/loop.ts`, as the docs name
 *   core's and the CLI's files from their `src/`).
 * Not paths: placeholders and globs (`<name>`, `oauth-*.ts`), the user's files (`~/.kodo/…`,
 * `.gemini/…`), package names (`@kodo/core`), and bare file names (`messages.ts` after
 * `contracts/`), which only their sentence places.
 *
 * Such a string exists when it is found from the repository's root, from `packages/`, or from
 * `packages/core/src/` or `packages/cli/src/`.
 */
const root = join(import.meta.dirname, '..', '..', '..', '..');
const DOCS = ['AGENTS.md', 'CONTRIBUTING.md', 'docs/architecture.md', 'docs/sdk.md'];
const ROOTS = /^(packages|docs|scripts|bench|\.ci|examples|core|cli|testkit)\//;
const FILE = /\/.*\.(ts|tsx|mjs|cjs|js|json|md|toml|sh|yml|patch)$/;
const BASES = ['', 'packages', 'packages/core/src', 'packages/cli/src'];

/**
 * Names a doc cites on purpose although they are gone: a section that tells what was removed.
 * Keep it short; a name that exists again, or is no longer cited, fails the test below.
 */
const HISTORICAL: Record<string, readonly string[]> = {};

interface Cited {
  /** As written in the doc. */
  path: string;
  /** Where it was looked for, from the repository's root. */
  candidates: string[];
}

function citedPaths(text: string, doc: string): Cited[] {
  const cited = new Map<string, Cited>();
  for (const match of text.matchAll(/`([^`\s]+)`|\]\(([^)\s#]+)\)/g)) {
    const linked = match[2] !== undefined;
    const path = (match[1] ?? match[2] ?? '').replace(/[.,:;]+$/, '');
    // Placeholders, globs, URLs, the user's files and package names name no file of the repository.
    if (/[<>*~]|^[a-z]+:|^@|^\.(?!ci\/)|^\//.test(path)) continue;
    if (linked) {
      cited.set(path, { path, candidates: [join(dirname(doc), path)] });
    } else if (ROOTS.test(path) || FILE.test(path)) {
      cited.set(path, { path, candidates: BASES.map((base) => join(base, path)) });
    }
  }
  return [...cited.values()];
}

function missing(cited: readonly Cited[]): string[] {
  return cited
    .filter((entry) => !entry.candidates.some((candidate) => existsSync(join(root, candidate))))
    .map((entry) => entry.path);
}

describe('contributor docs', () => {
  for (const doc of DOCS) {
    it(`${doc} cites only paths that exist`, () => {
      const cited = citedPaths(readFileSync(join(root, doc), 'utf8'), doc);
      expect(cited.length).toBeGreaterThan(1);
      const historical = HISTORICAL[doc] ?? [];
      expect(missing(cited).filter((path) => !historical.includes(path))).toEqual([]);
      // The list of historical names stays true: each is still cited and still gone.
      expect(historical.filter((path) => !missing(cited).includes(path))).toEqual([]);
    });
  }

  it('finds a cited path that does not exist (the check can fail)', () => {
    const text = [
      'see `packages/core/src/no-such-file.ts`, [x](missing.md), `agent/no-such-loop.ts`,',
      '`cli/src/shared/gone.ts`; not paths: `messages.ts`, `~/.kodo/x.json`, `oauth-*.ts`,',
      '`@kodo/core`, `.gemini/settings.json`, `session/update`, [web](https://example.com/a.md);',
      'found: `agent/loop.ts`, `ui/markdown/split.ts`, `core/src/on-demand.ts`, [sdk](sdk.md)',
    ].join('\n');
    expect(missing(citedPaths(text, 'docs/architecture.md'))).toEqual([
      'packages/core/src/no-such-file.ts',
      'missing.md',
      'agent/no-such-loop.ts',
      'cli/src/shared/gone.ts',
    ]);
    expect(citedPaths(text, 'docs/architecture.md').map((entry) => entry.path)).toHaveLength(8);
  });
});
