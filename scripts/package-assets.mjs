// Files the CLI loads by path at run time, copied beside its bundle so that an installed package
// carries them (the packages they come from are dependencies of @kodo/core only, which the
// published CLI package does not depend on). See packages/core/src/scheduler/policy/shell-parser-wasm.ts.
//
// Not copied: ripgrep's binary (a per-platform package that @vscode/ripgrep, a dependency of the
// CLI package, installs) and node-pty's native binary (external to the bundle, a dependency too).

import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

const require = createRequire(import.meta.url);

/** What the shell parser loads: web-tree-sitter's runtime and the bash grammar. */
const SHELL_PARSER_WASM = ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'];

/** @param {string} cliDist packages/cli/dist */
export async function copyRuntimeAssets(cliDist) {
  const wasmDir = join(cliDist, 'wasm');
  await mkdir(wasmDir, { recursive: true });
  for (const specifier of SHELL_PARSER_WASM) {
    const source = require.resolve(specifier);
    await copyFile(source, join(wasmDir, basename(source)));
  }
}
