import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { geminiHome, kodoHome } from '../config/paths';
import { parseJsonc } from '../utils/jsonc';

/**
 * Trusted folders. A folder's settings, hooks, MCP servers, `.env`, custom
 * commands and policies can run code or approve it, so kodo loads them only for folders the person
 * trusted. Rules live in `~/.kodo/trustedFolders.json` (`{"<absolute path>": "<level>"}`, comments
 * allowed); Gemini CLI's `~/.gemini/trustedFolders.json` is read too, and kodo's rules win.
 */

export type TrustLevel = 'TRUST_FOLDER' | 'TRUST_PARENT' | 'DO_NOT_TRUST';
export const TRUST_LEVELS: readonly TrustLevel[] = ['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST'];

export interface TrustRule {
  /** The path as written in the file. */
  path: string;
  level: TrustLevel;
  /** The file the rule came from. */
  file: string;
}

/** A trust file that cannot be read as rules: a config error (exit 52). */
export class TrustFileError extends Error {
  override readonly name = 'TrustFileError';
}

/** `$KODO_TRUSTED_FOLDERS_PATH`, or `~/.kodo/trustedFolders.json`. */
export function trustFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.KODO_TRUSTED_FOLDERS_PATH?.trim();
  return override ? override : join(kodoHome(env), 'trustedFolders.json');
}

/** Gemini CLI's file, read for compatibility: `$GEMINI_CLI_TRUSTED_FOLDERS_PATH` or `~/.gemini/…`. */
export function geminiTrustFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.GEMINI_CLI_TRUSTED_FOLDERS_PATH?.trim();
  return override ? override : join(geminiHome(env), 'trustedFolders.json');
}

export class TrustStore {
  /** kodo's file: read and written. */
  readonly path: string;
  private readonly otherFiles: string[];

  constructor(options: { path: string; readOnlyFiles?: string[] }) {
    this.path = options.path;
    this.otherFiles = options.readOnlyFiles ?? [];
  }

  static forEnv(env: NodeJS.ProcessEnv = process.env): TrustStore {
    return new TrustStore({ path: trustFilePath(env), readOnlyFiles: [geminiTrustFilePath(env)] });
  }

  /** Every rule, Gemini CLI's first so kodo's win ties. Read fresh: another window may have added one. */
  rules(): TrustRule[] {
    return [...this.otherFiles, this.path].flatMap((file) => readRules(file));
  }

  /** The rule that decides for `path`: the longest rule path whose folder contains it. */
  ruleFor(path: string): TrustRule | undefined {
    const target = realOrResolved(path);
    let best: { rule: TrustRule; length: number } | undefined;
    for (const rule of this.rules()) {
      const rulePath = realOrResolved(rule.path);
      const folder = rule.level === 'TRUST_PARENT' ? dirname(rulePath) : rulePath;
      if (!contains(folder, target)) continue;
      if (!best || rulePath.length >= best.length) best = { rule, length: rulePath.length };
    }
    return best?.rule;
  }

  /** true: trusted; false: the person said not to; undefined: no rule (ask, or treat as untrusted). */
  isTrusted(path: string): boolean | undefined {
    const rule = this.ruleFor(path);
    return rule ? rule.level !== 'DO_NOT_TRUST' : undefined;
  }

  /** Records a decision for `path` in kodo's file (written atomically, readable only by the user). */
  trust(path: string, level: TrustLevel): void {
    const rules = ownRulesObject(this.path);
    rules[realOrResolved(path)] = level;
    this.write(rules);
  }

  /** Removes kodo's rule for exactly `path`; true when there was one. */
  forget(path: string): boolean {
    const rules = ownRulesObject(this.path);
    const key = realOrResolved(path);
    if (!(key in rules)) return false;
    delete rules[key];
    this.write(rules);
    return true;
  }

  private write(rules: Record<string, TrustLevel>): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(rules, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.path);
  }
}

/** How a folder's trust was decided. */
export type TrustSource =
  /** `--skip-trust`. */
  | 'flag'
  /** `KODO_TRUST_WORKSPACE` / `GEMINI_CLI_TRUST_WORKSPACE`. */
  | 'env'
  /** `security.folderTrust.enabled: false` in the user settings. */
  | 'disabled'
  | 'rule'
  /** No rule: interactive front ends ask; headless treats the folder as untrusted. */
  | 'none';

export interface FolderTrust {
  trusted: boolean;
  source: TrustSource;
  rule?: TrustRule;
}

export interface FolderTrustOptions {
  path: string;
  env: NodeJS.ProcessEnv;
  /** `--skip-trust`. */
  skipTrust?: boolean;
  /** `security.folderTrust.enabled` from the user's settings (never the folder's own). */
  enabled: boolean;
  store: TrustStore;
}

/** Decides whether a folder is trusted. Throws TrustFileError for a bad file. */
export function checkFolderTrust(options: FolderTrustOptions): FolderTrust {
  if (options.skipTrust) return { trusted: true, source: 'flag' };
  const fromEnv = (options.env.KODO_TRUST_WORKSPACE ?? options.env.GEMINI_CLI_TRUST_WORKSPACE)
    ?.trim()
    .toLowerCase();
  if (fromEnv === 'true' || fromEnv === '1') return { trusted: true, source: 'env' };
  if (fromEnv === 'false' || fromEnv === '0') return { trusted: false, source: 'env' };
  if (!options.enabled) return { trusted: true, source: 'disabled' };
  const rule = options.store.ruleFor(options.path);
  if (!rule) return { trusted: false, source: 'none' };
  return { trusted: rule.level !== 'DO_NOT_TRUST', source: 'rule', rule };
}

/** Exit 55: headless in a folder that is not trusted (Gemini CLI's code and message, with kodo's names). */
export const UNTRUSTED_HEADLESS_MESSAGE =
  'kodo is not running in a trusted directory. To proceed, either use `--skip-trust`, set the ' +
  '`KODO_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode ' +
  '(or set `security.folderTrust.untrustedHeadless` to "restricted" in your user settings to run ' +
  "without the folder's settings, hooks and auto-approval).";

function readRules(file: string): TrustRule[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  if (text.trim() === '') return [];
  let value: unknown;
  try {
    value = parseJsonc(text);
  } catch (error) {
    throw new TrustFileError(`Invalid trusted folders file ${file}: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TrustFileError(`Invalid trusted folders file ${file}: the top level must be an object.`);
  }
  const rules: TrustRule[] = [];
  for (const [path, level] of Object.entries(value)) {
    if (!TRUST_LEVELS.includes(level as TrustLevel)) {
      throw new TrustFileError(
        `Invalid trusted folders file ${file}: "${path}" has level ${JSON.stringify(level)}; use ${TRUST_LEVELS.join(', ')}.`,
      );
    }
    rules.push({ path, level: level as TrustLevel, file });
  }
  return rules;
}

function ownRulesObject(file: string): Record<string, TrustLevel> {
  const rules: Record<string, TrustLevel> = {};
  for (const rule of readRules(file)) rules[rule.path] = rule.level;
  return rules;
}

function contains(folder: string, target: string): boolean {
  if (folder === sep) return true;
  return target === folder || target.startsWith(folder + sep);
}

function realOrResolved(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
