import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The contributor docs name files a newcomer will open first; when a file moves, the doc must
 * move with it. Every repository path they cite (in backticks or as a link) has to exist.
 */
const root = join(import.meta.dirname, '..', '..', '..', '..');
const DOCS = ['AGENTS.md', 'CONTRIBUTING.md'];
const ROOTS = /^(packages|docs|scripts|bench|\.ci|examples)\//;

function citedPaths(text: string): string[] {
  const cited = new Set<string>();
  for (const match of text.matchAll(/`([^`\s]+)`|\]\(([^)\s#]+)\)/g)) {
    const path = (match[1] ?? match[2] ?? '').replace(/[.,:;]+$/, '');
    // Placeholders (`<name>`) and globs name a pattern, not a file.
    if (/[<>*]/.test(path)) continue;
    if (ROOTS.test(path) || /^[A-Z_]+\.md$/.test(path)) cited.add(path);
  }
  return [...cited];
}

describe('contributor docs', () => {
  for (const doc of DOCS) {
    it(`${doc} cites only paths that exist`, () => {
      const cited = citedPaths(readFileSync(join(root, doc), 'utf8'));
      expect(cited.length).toBeGreaterThan(3);
      expect(cited.filter((path) => !existsSync(join(root, path)))).toEqual([]);
    });
  }

  it('finds a cited path that does not exist (the check can fail)', () => {
    const cited = citedPaths('see `packages/core/src/no-such-file.ts` and [x](docs/missing.md)');
    expect(cited.filter((path) => !existsSync(join(root, path)))).toEqual([
      'packages/core/src/no-such-file.ts',
      'docs/missing.md',
    ]);
  });
});
