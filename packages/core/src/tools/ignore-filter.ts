import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isInside } from './workspace';

/** Version-control data: never listed by the search tools, whatever the options say. */
export const VCS_DIR_NAMES: readonly string[] = ['.git', '.svn', '.hg'];
/** Dependency trees: skipped by default (grep_search's `no_ignore` searches them). */
export const DEPENDENCY_DIR_NAMES: readonly string[] = ['node_modules', 'bower_components'];
/** The default excludes of glob and grep_search, as globs. */
export const ALWAYS_EXCLUDED_GLOBS: readonly string[] = [...VCS_DIR_NAMES, ...DEPENDENCY_DIR_NAMES].map(
  (name) => `**/${name}/**`,
);
/**
 * Project ignore files in the workspace root, gitignore syntax: kodo's own and Gemini CLI's (so a
 * project set up for either works). Rules of both apply; a later file's `!rule` can re-include.
 */
export const PROJECT_IGNORE_FILES: readonly string[] = ['.geminiignore', '.kodoignore'];

export interface IgnoreFilterOptions {
  /** The workspace root the searched paths belong to. */
  workspaceRoot: string;
  respectGitIgnore: boolean;
  /** Obey the project ignore files (`.geminiignore`, `.kodoignore`) and `customIgnoreFiles`. */
  respectGeminiIgnore: boolean;
  /**
   * `context.fileFiltering.customIgnoreFilePaths`: more ignore files, absolute or relative to the
   * workspace root, read with the project ignore files; earlier entries take precedence.
   */
  customIgnoreFiles?: readonly string[];
}

interface RuleSet {
  /** Directory the rules are relative to. */
  base: string;
  rules: Ignore;
}

/**
 * Which files the search tools skip because an ignore file says so: `.gitignore` files (from the
 * git top level down, so a workspace inside a repository obeys the repository's rules; outside a
 * repository, from the workspace root down, since the files still say what is noise), the
 * repository's `.git/info/exclude`, and the project ignore files in the workspace root. Rule files are read
 * lazily, once per directory, and verdicts for directories are cached: a directory that is
 * ignored hides everything below it, as in git.
 */
export class IgnoreFilter {
  private readonly gitRoot: string | undefined;
  private readonly gitExclude: RuleSet | undefined;
  private readonly projectRules: RuleSet | undefined;
  private readonly dirRules = new Map<string, RuleSet | null>();
  private readonly dirVerdicts = new Map<string, boolean>();

  constructor(private readonly options: IgnoreFilterOptions) {
    this.gitRoot = options.respectGitIgnore ? findGitRoot(options.workspaceRoot) : undefined;
    if (this.gitRoot) {
      this.gitExclude = loadRules(this.gitRoot, join(this.gitRoot, '.git', 'info', 'exclude'));
    }
    if (options.respectGeminiIgnore) {
      this.projectRules = loadRules(options.workspaceRoot, ...projectIgnoreFiles(options));
    }
  }

  /** True when nothing can be ignored, so callers may skip the per-file checks. */
  get inactive(): boolean {
    return !this.options.respectGitIgnore && this.projectRules === undefined;
  }

  isIgnored(absolutePath: string, isDirectory: boolean): boolean {
    const root = this.gitRoot ?? this.options.workspaceRoot;
    if (!isInside(root, absolutePath) || absolutePath === root) return false;
    const parent = dirname(absolutePath);
    if (parent !== root && this.isIgnoredDirectory(parent)) return true;
    return this.matches(absolutePath, isDirectory);
  }

  private isIgnoredDirectory(path: string): boolean {
    let verdict = this.dirVerdicts.get(path);
    if (verdict === undefined) {
      verdict = this.isIgnored(path, true);
      this.dirVerdicts.set(path, verdict);
    }
    return verdict;
  }

  /**
   * Git rules: within one chain later (deeper) files override earlier ones. The project ignore
   * files are a separate list: a path they name is ignored whatever the git rules say.
   */
  private matches(absolutePath: string, isDirectory: boolean): boolean {
    if (this.projectRules && verdict(this.projectRules, absolutePath, isDirectory) === true) return true;
    let ignored = false;
    const gitSets = this.gitExclude ? [this.gitExclude] : [];
    for (const set of [...gitSets, ...this.gitignoreChain(dirname(absolutePath))]) {
      ignored = verdict(set, absolutePath, isDirectory) ?? ignored;
    }
    return ignored;
  }

  /** `.gitignore` rule sets from the git top level (or workspace root) down to `dir`. */
  private gitignoreChain(dir: string): RuleSet[] {
    if (!this.options.respectGitIgnore) return [];
    const root = this.gitRoot ?? this.options.workspaceRoot;
    const dirs: string[] = [];
    for (let current = dir; isInside(root, current); current = dirname(current)) {
      dirs.push(current);
      if (current === root) break;
    }
    const chain: RuleSet[] = [];
    for (const current of dirs.reverse()) {
      let set = this.dirRules.get(current);
      if (set === undefined) {
        set = loadRules(current, join(current, '.gitignore')) ?? null;
        this.dirRules.set(current, set);
      }
      if (set) chain.push(set);
    }
    return chain;
  }
}

/**
 * The project ignore files in the order their rules apply: later files override earlier ones, so
 * the custom files come last, in reverse (the first listed has the last word).
 */
export function projectIgnoreFiles(
  options: Pick<IgnoreFilterOptions, 'workspaceRoot' | 'customIgnoreFiles'>,
): string[] {
  const custom = [...(options.customIgnoreFiles ?? [])]
    .reverse()
    .map((path) => resolve(options.workspaceRoot, path));
  return [...PROJECT_IGNORE_FILES.map((name) => join(options.workspaceRoot, name)), ...custom];
}

/** true = ignored, false = re-included by a `!` rule, undefined = no rule applies. */
function verdict(set: RuleSet, absolutePath: string, isDirectory: boolean): boolean | undefined {
  if (!isInside(set.base, absolutePath) || set.base === absolutePath) return undefined;
  let rel = relative(set.base, absolutePath).split(sep).join('/');
  if (isDirectory) rel += '/';
  const result = set.rules.test(rel);
  if (result.ignored) return true;
  return result.unignored ? false : undefined;
}

/** The rules of the files that exist (in order, so later files win), or undefined if none does. */
function loadRules(base: string, ...files: string[]): RuleSet | undefined {
  let rules: Ignore | undefined;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    rules = (rules ?? ignore()).add(text);
  }
  return rules ? { base, rules } : undefined;
}

/** Nearest ancestor (or the directory itself) holding `.git`, or undefined outside a repository. */
export function findGitRoot(start: string): string | undefined {
  for (let current = start; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}
