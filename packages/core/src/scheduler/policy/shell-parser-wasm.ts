import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The two WebAssembly files the shell parser needs. */
export interface ShellParserWasm {
  /** web-tree-sitter's runtime. */
  runtime: string;
  /** tree-sitter-bash's grammar. */
  grammar: string;
}

/** The directory the build copies both files into, beside the CLI bundle (scripts/package-assets.mjs). */
export const BUNDLED_WASM_DIR = 'wasm';
export const RUNTIME_WASM = 'web-tree-sitter.wasm';
export const GRAMMAR_WASM = 'tree-sitter-bash.wasm';

/**
 * Where the shell parser's WebAssembly is. First beside the bundle (`wasm/` next to the chunk or
 * one level up): an installed CLI package carries its own copies, matching the tree-sitter code
 * bundled with it, and has no tree-sitter packages installed. Otherwise from node_modules,
 * resolved from this module (the source tree in tests, @kodo/core's own dependencies).
 * Throws, naming where it looked, when neither has them.
 */
export function locateShellParserWasm(moduleUrl: string = import.meta.url): ShellParserWasm {
  const here = dirname(fileURLToPath(moduleUrl));
  const bundledDirs = [join(here, BUNDLED_WASM_DIR), join(here, '..', BUNDLED_WASM_DIR)];
  for (const dir of bundledDirs) {
    const runtime = join(dir, RUNTIME_WASM);
    const grammar = join(dir, GRAMMAR_WASM);
    if (existsSync(runtime) && existsSync(grammar)) return { runtime, grammar };
  }
  const require = createRequire(moduleUrl);
  try {
    return {
      runtime: require.resolve(`web-tree-sitter/${RUNTIME_WASM}`),
      grammar: require.resolve(`tree-sitter-bash/${GRAMMAR_WASM}`),
    };
  } catch {
    throw new Error(
      `${GRAMMAR_WASM} and ${RUNTIME_WASM} were found neither in ${bundledDirs.join(' or ')} nor in node_modules`,
    );
  }
}
