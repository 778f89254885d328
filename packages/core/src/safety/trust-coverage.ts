import { type Dirent, readdirSync, readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { findEnvFile } from '../config/env-file';
import { isInside } from '../tools/workspace';
import { parseJsonc } from '../utils/jsonc';

/**
 * What the trust fingerprint covers: every file of a project whose change alters what kodo runs
 * there once the folder is trusted.
 *
 * - the settings (`.kodo/settings.json`, `.gemini/settings.json`, `.mcp.json`), the policy files and folders
 *   they name, and every script inside the project that their commands name: hook commands, MCP
 *   servers (command, arguments, working folder, environment), tool discovery and call commands,
 *   any `command` (a script: a file with a code extension, or an executable one without an
 *   extension; in a named folder, its scripts — not the data a hook or server writes there);
 * - the folders kodo loads from: policies, hooks, commands, skills, agents and extensions of
 *   `.kodo`, `.gemini`, `.claude` and `.agents`, whole and at any depth (symlinks followed);
 * - the `.env` files (`.kodo/.env`, `.gemini/.env`, `.env`, and the one above the project that
 *   a run would load) and the scripts inside the project their values name (`NODE_OPTIONS=
 *   --require ./x.js`);
 * - a named script or policy that does not exist yet counts as absent: creating it is a change.
 *
 * Context files (KODO.md…) and source code are not covered: they do not run by themselves.
 * When the set cannot be covered — more files or bytes than the limits, a file or folder that
 * cannot be read — the result says why, and the fingerprint then never matches (fail closed).
 */

export interface CoverageLimits {
  maxFiles: number;
  maxBytes: number;
}

export const DEFAULT_COVERAGE_LIMITS: CoverageLimits = { maxFiles: 10_000, maxBytes: 64 * 1024 * 1024 };

/** One covered path: a file and its bytes, or a path that is absent. */
export type CoveredEntry = { path: string; content: Buffer } | { path: string; absent: true };

export type Coverage = { ok: true; entries: CoveredEntry[] } | { ok: false; reason: string };

/** Folders loaded whole (relative to the project). */
const LOADED_TREES: readonly string[] = ['.kodo', '.gemini', '.claude', '.agents'].flatMap((home) =>
  ['policies', 'hooks', 'commands', 'skills', 'agents', 'extensions'].map((kind) => `${home}/${kind}`),
);
// `.mcp.json` is Claude Code's project MCP file: its `mcpServers` name commands like settings do.
const SETTINGS_FILES: readonly string[] = ['.kodo/settings.json', '.gemini/settings.json', '.mcp.json'];
const ENV_FILES: readonly string[] = ['.kodo/.env', '.gemini/.env', '.env'];
/** Settings whose strings are commands, or name scripts that run. */
const COMMAND_SUBTREES: readonly string[] = ['hooks', 'mcpServers'];
/** Settings that name policy files and folders: covered whole, wherever they are. */
const POLICY_KEYS: readonly string[] = ['policyPaths', 'adminPolicyPaths'];
/**
 * What a command runs, by its name: code. A data file a hook or server writes (a report, a
 * database, a log) is not a change to what runs, and covering it would make every use of the
 * project look like one.
 */
const SCRIPT_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'sh bash zsh fish ksh csh js mjs cjs jsx ts mts cts tsx py pyw pyz rb pl pm php lua ps1 psm1 bat cmd exe ' +
    'com jar war go rs java kt kts swift r jl awk sed tcl groovy scala clj ex exs erl hs ml nu wasm node so dylib dll'
  ).split(' '),
);
/** Inside a referenced folder, what is rebuilt or fetched rather than written (as discovery skips it). */
const SKIPPED_IN_REFERENCED: ReadonlySet<string> = new Set(['node_modules', '.git']);
/** How hooks and MCP servers name the project in their commands. */
const PROJECT_VARIABLES =
  /\$\{?(?:KODO_PROJECT_DIR|CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|GEMINI_CWD|KODO_CWD)\}?/g;

class Unverifiable extends Error {}

type Kind = 'absent' | 'file' | 'dir';

/** The `.env` a run here would load from a folder above the project; not the user's own files. */
function envFileAbove(project: string): string | undefined {
  const found = findEnvFile({ cwd: project, env: {}, trusted: true });
  if (!found || found.home) return undefined;
  const home = resolve(homedir());
  const usersOwn = [join(home, '.env'), join(home, '.kodo', '.env'), join(home, '.gemini', '.env')];
  return usersOwn.includes(found.path) ? undefined : found.path;
}

/** Every covered path of the project, in a stable order, or why the set cannot be covered. */
export function projectCoverage(
  projectDir: string,
  limits: CoverageLimits = DEFAULT_COVERAGE_LIMITS,
): Coverage {
  const walk = new CoverageWalk(resolve(projectDir), limits);
  try {
    for (const file of SETTINGS_FILES) {
      const path = join(walk.project, file);
      walk.add(path);
      const named = settingsStrings(path);
      walk.addReferences(named.commands);
      for (const policy of named.policies) walk.add(resolve(walk.project, policy));
    }
    for (const tree of LOADED_TREES) walk.add(join(walk.project, tree));
    const envFiles = ENV_FILES.map((name) => join(walk.project, name));
    const above = envFileAbove(walk.project);
    if (above) envFiles.push(above);
    for (const file of envFiles) {
      walk.add(file);
      walk.addReferences(envValues(file));
    }
  } catch (error) {
    if (error instanceof Unverifiable) return { ok: false, reason: error.message };
    throw error;
  }
  return { ok: true, entries: walk.entries() };
}

class CoverageWalk {
  private readonly covered = new Map<string, CoveredEntry>();
  private readonly visitedDirs = new Set<string>();
  private bytes = 0;

  constructor(
    readonly project: string,
    private readonly limits: CoverageLimits,
  ) {}

  entries(): CoveredEntry[] {
    return [...this.covered.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * A file, a folder (all of it), or an absent path. With `scriptsOnly`, only scripts (see
   * SCRIPT_EXTENSIONS) are covered, absent or present, and `node_modules` and `.git` are left out.
   */
  add(path: string, options: { scriptsOnly?: boolean } = {}): void {
    // A listing says which entries are plain files and folders; only links need a stat.
    const stack: { path: string; kind?: Kind }[] = [{ path }];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (this.covered.has(current.path)) continue;
      const kind = current.kind ?? this.kindOf(current.path);
      if (kind !== 'dir' && options.scriptsOnly && !isScript(current.path, kind)) continue;
      if (kind === 'absent') {
        this.record({ path: current.path, absent: true });
      } else if (kind === 'file') {
        this.record({ path: current.path, content: this.read(current.path) });
      } else {
        const real = realpathSync.native(current.path);
        if (this.visitedDirs.has(real)) continue;
        this.visitedDirs.add(real);
        for (const entry of this.list(current.path)) {
          if (options.scriptsOnly && SKIPPED_IN_REFERENCED.has(entry.name)) continue;
          const known = entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : undefined;
          stack.push({ path: join(current.path, entry.name), ...(known ? { kind: known } : {}) });
        }
      }
    }
  }

  /** Scripts inside the project that command strings name (other words cost one stat each). */
  addReferences(strings: readonly string[]): void {
    for (const text of strings) {
      // Quotes join what they touch, as in a shell: `"$KODO_PROJECT_DIR"/x.sh` is one path.
      const expanded = text.replace(PROJECT_VARIABLES, this.project).replace(/["'`]/g, '');
      for (const word of expanded.split(/[\s=,;|&()<>]+/)) {
        if (word === '' || (word.startsWith('-') && !word.includes('/'))) continue;
        const path = isAbsolute(word) ? resolve(word) : resolve(this.project, word);
        if (path === this.project || !isInside(this.project, path)) continue;
        this.add(path, { scriptsOnly: true });
      }
    }
  }

  private record(entry: CoveredEntry): void {
    if (this.covered.size >= this.limits.maxFiles) {
      throw new Unverifiable(
        `more than ${this.limits.maxFiles} files to cover (at ${this.display(entry.path)})`,
      );
    }
    this.covered.set(entry.path, entry);
  }

  private kindOf(path: string): Kind {
    let stats: Stats | undefined;
    try {
      // Most covered paths are absent: no error (with its stack) is built for them.
      stats = statSync(path, { throwIfNoEntry: false });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') return 'absent';
      throw new Unverifiable(`${this.display(path)} cannot be read (${code ?? 'error'})`);
    }
    // Nothing there (a dangling link too: creating its target is a change), or a socket, FIFO
    // or device: nothing kodo runs, and reading it could block.
    if (!stats) return 'absent';
    if (stats.isDirectory()) return 'dir';
    return stats.isFile() ? 'file' : 'absent';
  }

  private read(path: string): Buffer {
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch (error) {
      throw new Unverifiable(
        `${this.display(path)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    this.bytes += content.length;
    if (this.bytes > this.limits.maxBytes) {
      throw new Unverifiable(`more than ${this.limits.maxBytes} bytes to cover (at ${this.display(path)})`);
    }
    return content;
  }

  private list(dir: string): Dirent[] {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      throw new Unverifiable(
        `${this.display(dir)} cannot be listed (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }

  display(path: string): string {
    return isInside(this.project, path) ? relative(this.project, path) : path;
  }
}

/** A script by its name (a code extension), or an executable file without an extension. */
function isScript(path: string, kind: Kind): boolean {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  if (dot > 0) return SCRIPT_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
  if (kind !== 'file') return false;
  try {
    return (statSync(path).mode & 0o111) !== 0;
  } catch {
    return true; // Cannot tell: covered, so reading it decides.
  }
}

/** The strings of a settings file that are commands (COMMAND_SUBTREES, `*command*` keys), and its policy paths. */
function settingsStrings(path: string): { commands: string[]; policies: string[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { commands: [], policies: [] };
    throw new Unverifiable(`${path} cannot be read`);
  }
  let value: unknown;
  try {
    value = parseJsonc(text);
  } catch {
    // kodo refuses to start on such a file; until it is fixed nothing it names can be known.
    throw new Unverifiable(`${path} is not valid JSON`);
  }
  const commands: string[] = [];
  const policies: string[] = [];
  const visit = (node: unknown, into: string[] | undefined, key: string) => {
    if (typeof node === 'string') {
      if (into) into.push(node);
      else if (/command/i.test(key)) commands.push(node);
    } else if (Array.isArray(node)) {
      for (const item of node) visit(item, into, key);
    } else if (node !== null && typeof node === 'object') {
      for (const [name, child] of Object.entries(node)) visit(child, into, name);
    }
  };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, child] of Object.entries(value)) {
      const into = COMMAND_SUBTREES.includes(name)
        ? commands
        : POLICY_KEYS.includes(name)
          ? policies
          : undefined;
      visit(child, into, name);
    }
  }
  return { commands, policies };
}

/** The values of a `.env` file (read as text: a name, `=`, the rest of the line). */
function envValues(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    )
      return [];
    throw new Unverifiable(`${path} cannot be read`);
  }
  return text
    .split(/\r?\n/)
    .map((line) => /^\s*(?:export\s+)?[\w.-]+\s*=\s*(.*)$/.exec(line)?.[1] ?? '')
    .filter((value) => value !== '');
}
