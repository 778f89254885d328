import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileToolContext } from '../../src/tools/file-change';
import { type PatchFileSystem, workspaceFileSystem } from '../../src/tools/patch/commit';
import type { ExecuteOptions, Tool, ToolContext, ToolError, ToolResult } from '../../src/tools/tool';

/** Builds and executes a tool call; fails the test if the arguments do not validate. */
export async function runTool(
  tool: Tool,
  args: unknown,
  ctx: ToolContext,
  options: Partial<ExecuteOptions> = {},
): Promise<ToolResult> {
  const built = tool.build(args, ctx);
  if (!built.ok) throw new Error(`unexpected validation error: ${built.error.message}`);
  return built.invocation.execute({ signal: options.signal ?? new AbortController().signal, ...options });
}

/** The validation error for these arguments (undefined when they are accepted). */
export function buildError(tool: Tool, args: unknown, ctx: ToolContext): ToolError | undefined {
  const built = tool.build(args, ctx);
  return built.ok ? undefined : built.error;
}

/** Text of a string result (fails for part arrays). */
export function text(result: ToolResult): string {
  if (typeof result.llmContent !== 'string') throw new Error('expected string llmContent');
  return result.llmContent;
}

/**
 * A directory outside the workspace with `secret.txt`, and links inside the workspace root that
 * lead there: `link-file` (existing file), `link-dir` (directory), `link-dangling` (missing file).
 */
export function outsideWithLinks(root: string): { outside: string; cleanup(): void } {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-outside-')));
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-file'));
  symlinkSync(outside, join(root, 'link-dir'));
  symlinkSync(join(outside, 'created-through-link.txt'), join(root, 'link-dangling'));
  return { outside, cleanup: () => rmSync(outside, { recursive: true, force: true }) };
}

/**
 * apply_patch's real file system with `before` run ahead of every write and removal: a test
 * makes one of them fail, or changes the disk under it, at that moment.
 */
export function beforePatchWrites(before: () => void): (ctx: FileToolContext) => PatchFileSystem {
  return (ctx) => {
    const real = workspaceFileSystem(ctx);
    return {
      ...real,
      write: async (change) => {
        before();
        await real.write(change);
      },
      remove: async (abs) => {
        before();
        await real.remove(abs);
      },
    };
  };
}
