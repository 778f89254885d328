import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GRAMMAR_WASM,
  locateShellParserWasm,
  RUNTIME_WASM,
} from '../../src/scheduler/policy/shell-parser-wasm';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fake bundle directory outside any node_modules tree. */
function bundleDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kodo-wasm-'));
  temps.push(dir);
  mkdirSync(join(dir, 'chunks'));
  return dir;
}

function putWasm(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, RUNTIME_WASM), '');
  writeFileSync(join(dir, GRAMMAR_WASM), '');
}

describe('locating the shell parser WebAssembly', () => {
  it('prefers the copies beside the bundle, one level above a chunk', () => {
    const dist = bundleDir();
    putWasm(join(dist, 'wasm'));
    const chunk = pathToFileURL(join(dist, 'chunks', 'policy.cjs')).href;
    expect(locateShellParserWasm(chunk)).toEqual({
      runtime: join(dist, 'wasm', RUNTIME_WASM),
      grammar: join(dist, 'wasm', GRAMMAR_WASM),
    });
  });

  it('finds them next to a flat bundle too', () => {
    const dist = bundleDir();
    putWasm(join(dist, 'wasm'));
    const entry = pathToFileURL(join(dist, 'cli.cjs')).href;
    expect(locateShellParserWasm(entry).grammar).toBe(join(dist, 'wasm', GRAMMAR_WASM));
  });

  it('falls back to node_modules (the source tree)', () => {
    const found = locateShellParserWasm();
    expect(found.runtime).toMatch(/node_modules[\\/]web-tree-sitter[\\/]web-tree-sitter\.wasm$/);
    expect(found.grammar).toMatch(/node_modules[\\/]tree-sitter-bash[\\/]tree-sitter-bash\.wasm$/);
  });

  it('names where it looked when neither place has them', () => {
    const dist = bundleDir();
    const chunk = pathToFileURL(join(dist, 'chunks', 'policy.cjs')).href;
    expect(() => locateShellParserWasm(chunk)).toThrow(
      `${GRAMMAR_WASM} and ${RUNTIME_WASM} were found neither in ${join(dist, 'chunks', 'wasm')} or ${join(dist, 'wasm')} nor in node_modules`,
    );
  });
});
