import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { ToolError } from './tool';

/**
 * The directories tools may touch. Every path a tool receives goes through `resolvePath`, which
 * follows symlinks (for a path that does not exist yet, those of its nearest existing ancestor) so
 * a link inside the workspace cannot lead a tool outside it.
 */
export class Workspace {
  /** Real (symlink-free) absolute roots. */
  readonly roots: readonly string[];
  /** Where relative paths resolve from: the first root unless given. */
  readonly cwd: string;
  /** Project temp dir (tool-output spill files, plans); also allowed. */
  readonly tempDir: string | undefined;
  /** Folders tools may read but never write (an activated skill's resources); grows at run time. */
  private readonly readableDirs: string[] = [];

  constructor(options: { roots: string[]; cwd?: string; tempDir?: string }) {
    if (options.roots.length === 0) throw new Error('A workspace needs at least one root directory.');
    this.roots = options.roots.map((root) => realpathOrResolved(root));
    this.cwd = realpathOrResolved(options.cwd ?? options.roots[0]!);
    this.tempDir = options.tempDir ? realpathOrResolved(options.tempDir) : undefined;
  }

  /** Absolute path for a tool argument, without any containment check. */
  absolute(path: string): string {
    return isAbsolute(path) ? resolve(path) : resolve(this.cwd, path);
  }

  /**
   * Whether an absolute path (after following symlinks) lies inside an allowed directory. Reads
   * (`access: 'read'`) may also reach the folders added with `allowReading`.
   */
  contains(absolutePath: string, options: { access?: PathAccess } = {}): boolean {
    const real = realpathOfNearestExisting(absolutePath);
    const dirs =
      options.access === 'read' ? [...this.allowedDirs(), ...this.readableDirs] : this.allowedDirs();
    return dirs.some((dir) => isInside(dir, real));
  }

  /** Lets the read tools reach `dir` (not the edit tools or the shell's working directory). */
  allowReading(dir: string): void {
    const real = realpathOrResolved(dir);
    if (!this.readableDirs.includes(real)) this.readableDirs.push(real);
  }

  /** Whether a path already free of symlinks (a descriptor's real path) lies inside. */
  containsReal(realPath: string, options: { access?: PathAccess } = {}): boolean {
    const dirs =
      options.access === 'read' ? [...this.allowedDirs(), ...this.readableDirs] : this.allowedDirs();
    return dirs.some((dir) => isInside(dir, realPath));
  }

  /** The check for a read: the workspace, and the folders opened for reading (skills). */
  readAccess(): { containsReal(realPath: string): boolean } {
    return { containsReal: (realPath) => this.containsReal(realPath, { access: 'read' }) };
  }

  /**
   * A test for search results (glob, grep, directory listings): whether an entry, by its real
   * path, lies inside. A pattern can reach through a symlinked directory whose name is inside
   * while its files are not; the lexical path says nothing about that. Directory real paths are
   * cached for the life of the returned function, so a result list costs one lookup per folder.
   */
  realPathFilter(options: { access?: PathAccess } = {}): (absolutePath: string) => boolean {
    const dirs = new Map<string, string | undefined>();
    const realDir = (dir: string) => {
      if (!dirs.has(dir)) dirs.set(dir, realpathOrUndefined(dir));
      return dirs.get(dir);
    };
    return (absolutePath) => {
      const dir = realDir(dirname(absolutePath));
      if (dir === undefined || !this.containsReal(dir, options)) return false;
      let isLink: boolean;
      try {
        isLink = lstatSync(absolutePath).isSymbolicLink();
      } catch {
        return true; // Gone since it was listed: nothing outside to show.
      }
      if (!isLink) return true;
      const target = realpathOrUndefined(absolutePath);
      return target !== undefined && this.containsReal(target, options);
    };
  }

  /**
   * Resolves a tool's path argument. Returns the absolute path (as the model wrote it, joined to
   * cwd; not the symlink target) or a `path_not_in_workspace` error.
   */
  resolvePath(
    path: string,
    options: { access?: PathAccess } = {},
  ): { ok: true; path: string } | { ok: false; error: ToolError } {
    const absolute = this.absolute(path);
    if (this.contains(absolute, options)) return { ok: true, path: absolute };
    const tmp = this.tempDir ?? '(none)';
    return {
      ok: false,
      error: {
        type: 'path_not_in_workspace',
        message: `Path not in workspace: Attempted path "${path}" resolves outside the allowed workspace directories: ${this.roots.join(', ')} or the project temp directory: ${tmp}`,
      },
    };
  }

  /** Path relative to the root that contains it (for display); absolute if outside every root. */
  display(absolutePath: string): string {
    for (const root of this.roots) {
      if (isInside(root, absolutePath)) return relative(root, absolutePath) || '.';
    }
    return absolutePath;
  }

  private allowedDirs(): string[] {
    return this.tempDir ? [...this.roots, this.tempDir] : [...this.roots];
  }
}

/** What a tool does with a path: the default, `write`, never reaches read-only folders. */
export type PathAccess = 'read' | 'write';

export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function realpathOrResolved(path: string): string {
  // Not there yet (the temp folder before its first write): no ENOENT thrown on the way to the first request.
  if (!existsSync(path)) return resolve(path);
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** realpath of the path, or of its nearest existing ancestor with the missing tail re-appended. */
export function realpathOfNearestExisting(absolutePath: string): string {
  let current = absolutePath;
  const missing: string[] = [];
  let linkHops = 0;
  for (;;) {
    try {
      const real = realpathSync(current);
      return missing.length > 0 ? resolve(real, ...missing.reverse()) : real;
    } catch {
      // A dangling symlink: follow its target, which a later write would create.
      const target = danglingLinkTarget(current);
      if (target !== undefined && linkHops++ < 40) {
        // Relative to the link's real directory: the path as written may run through a symlink.
        current = resolve(realpathOrResolved(dirname(current)), target);
        continue;
      }
      const parent = dirname(current);
      if (parent === current) return absolutePath;
      missing.push(current.slice(parent.length).replace(/^[/\\]/, ''));
      current = parent;
    }
  }
}

function danglingLinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
