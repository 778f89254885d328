import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isInside } from '../tools/workspace';
import { pathIdentity } from '../utils/fs-read';
import { expandImports } from './imports';

/** Context file names looked for everywhere, primary first (`context.fileName` adds in front). */
export const DEFAULT_CONTEXT_FILE_NAMES = ['KODO.md', 'AGENTS.md', 'GEMINI.md', 'CLAUDE.md'];

export interface ProjectMemoryOptions {
  fileNames: readonly string[];
  /** Directories of global context files (`~/.kodo`, and `~/.gemini` for existing setups). */
  globalDirs: readonly string[];
  /** The workspace roots; each is searched upward to its project root. */
  workspaceRoots: readonly string[];
  /** A directory holding one of these is a project root (`context.memoryBoundaryMarkers`). */
  boundaryMarkers: readonly string[];
  /** Project files are read only in trusted folders. */
  includeProjectFiles: boolean;
  /** Further global files by path: the context files of active extensions. */
  extraGlobalFiles?: readonly string[];
}

export interface ContextFile {
  path: string;
  content: string;
}

/**
 * The context files (KODO.md, AGENTS.md, GEMINI.md) that tell the model about the user and the
 * project: global ones go into the system instruction, project ones (from each workspace root up
 * to its project root, root first) into the first user turn, and files in subdirectories join
 * when a tool first touches that directory (returned as text for the tool result).
 */
export class ProjectMemory {
  private global: ContextFile[] = [];
  private project: ContextFile[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly options: ProjectMemoryOptions) {}

  /** (Re)reads every file: startup and `/memory refresh`. */
  async load(): Promise<void> {
    this.seen.clear();
    this.global = await this.readAll(this.globalCandidates());
    this.project = this.options.includeProjectFiles ? await this.readAll(this.projectCandidates()) : [];
  }

  /** Paths in use, global first (`/memory list`). */
  paths(): string[] {
    return [...this.global, ...this.project].map((file) => file.path);
  }

  /** For the system instruction: the global files, or '' when there are none. */
  systemBlock(): string {
    if (this.global.length === 0) return '';
    return `<global_context>\n${renderBlocks(this.global)}\n</global_context>`;
  }

  /** For the first user turn: the project files, or '' when there are none. */
  firstTurnBlock(): string {
    if (this.project.length === 0) return '';
    return `<project_context>\nProject instructions and notes (these take precedence over global ones):\n${renderBlocks(this.project)}\n</project_context>`;
  }

  /** Everything, as `/memory show` prints it. */
  show(): string {
    return renderBlocks([...this.global, ...this.project]);
  }

  /**
   * Context files not yet loaded between `path`'s directory and its project root, rendered to be
   * appended to a tool result; undefined when there are none.
   */
  async discoverFor(path: string): Promise<string | undefined> {
    if (!this.options.includeProjectFiles) return undefined;
    const root = this.options.workspaceRoots.find((candidate) => isInside(candidate, path));
    if (!root) return undefined;
    const start = isDirectory(path) ? path : dirname(path);
    const top = findProjectRoot(root, this.options.boundaryMarkers) ?? root;
    const candidates = this.candidatesBetween(top, start);
    const found = await this.readAll(candidates);
    if (found.length === 0) return undefined;
    this.project.push(...found);
    return `\n\n--- Newly Discovered Project Context ---\n${renderBlocks(found)}\n--- End Project Context ---`;
  }

  private globalCandidates(): string[] {
    return [
      ...this.options.globalDirs.flatMap((dir) => this.options.fileNames.map((name) => join(dir, name))),
      ...(this.options.extraGlobalFiles ?? []),
    ];
  }

  private projectCandidates(): string[] {
    return this.options.workspaceRoots.flatMap((root) => {
      const top = findProjectRoot(root, this.options.boundaryMarkers) ?? root;
      return this.candidatesBetween(top, root);
    });
  }

  /** Files named like context files in every directory from `top` down to `leaf`. */
  private candidatesBetween(top: string, leaf: string): string[] {
    const dirs: string[] = [];
    for (let dir = resolve(leaf); ; dir = dirname(dir)) {
      dirs.unshift(dir);
      if (dir === top || dirname(dir) === dir || !isInside(top, dir)) break;
    }
    const globalDirs = new Set(this.options.globalDirs.map((dir) => pathIdentity(dir)));
    return dirs
      .filter((dir) => !globalDirs.has(pathIdentity(dir)))
      .flatMap((dir) => this.options.fileNames.map((name) => join(dir, name)));
  }

  private async readAll(paths: string[]): Promise<ContextFile[]> {
    const files: (ContextFile & { real: string })[] = [];
    // Files another one imports (CLAUDE.md holding `@AGENTS.md`) are read once, inside it.
    const imported = new Set<string>();
    // This runs before the first request. Most candidates do not exist, and the ones that do are
    // small: read synchronously, each costs microseconds, where an asynchronous read is four
    // thread-pool round trips (open, stat, read, close) of ~0.2 ms each.
    for (const path of paths.filter((candidate) => existsSync(candidate))) {
      const real = pathIdentity(path);
      if (this.seen.has(real) || imported.has(real)) continue;
      let content: string;
      try {
        content = readFileSync(path, 'utf8');
      } catch {
        continue;
      }
      this.seen.add(real);
      const allowedRoots = [...this.options.workspaceRoots, ...this.options.globalDirs, dirname(path)];
      const expanded = await expandImports(content, resolve(path), {
        allowedRoots,
        onImported: (target) => imported.add(pathIdentity(target)),
      });
      if (expanded.trim() !== '') files.push({ path, content: expanded.trim(), real });
    }
    return files.filter((file) => !imported.has(file.real)).map(({ real: _real, ...file }) => file);
  }
}

/** The nearest ancestor (or the directory itself) holding a boundary marker. */
export function findProjectRoot(start: string, markers: readonly string[]): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (markers.some((marker) => existsSync(join(dir, marker)))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function renderBlocks(files: ContextFile[]): string {
  return files
    .map(
      (file) =>
        `--- Context from: ${file.path} ---\n${file.content}\n--- End of Context from: ${file.path} ---`,
    )
    .join('\n\n');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
