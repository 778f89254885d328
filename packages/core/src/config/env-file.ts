import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { geminiHome, HOME_VARIABLES, kodoHome } from './paths';

/**
 * `.env` loading as Gemini CLI does it, so keys kept in a project's `.env` keep
 * working: the first file found from the working directory up — in each directory
 * `.kodo/.env` and `.gemini/.env` (trusted folders only), then `.env` — else kodo's and Gemini
 * CLI's home `.env` (trusted only), then `~/.env`. Variables already set are never overwritten,
 * and no `.env` may set where the configuration homes are (`HOME_LOCATING_ENV_VARS`).
 */

/** Left out of a project `.env` unless `advanced.excludedEnvVars` says otherwise. */
export const DEFAULT_EXCLUDED_ENV_VARS = [
  'DEBUG',
  'DEBUG_MODE',
  'GEMINI_CLI_IDE_SERVER_STDIO_COMMAND',
  'GEMINI_CLI_IDE_SERVER_STDIO_ARGS',
];

/**
 * Never taken from any `.env`: where the configuration homes are — kodo's, Gemini CLI's, Claude
 * Code's and Codex's, the OS's idea of the home (`HOME`, `USERPROFILE`), the XDG folders (git
 * reads its user configuration from `XDG_CONFIG_HOME`), git's user configuration itself — and
 * the trust store and trust decision. A project's `.env` setting one would make the project's
 * own files count as the user's (user settings and hooks, agents without acknowledgement,
 * extensions, policies, a trust file that trusts anything). The home folders' own `.env` files
 * cannot move them either: they are found through these very variables, after the trust
 * decision was made with them. Such names are set in the environment kodo starts with.
 */
export const HOME_LOCATING_ENV_VARS: readonly string[] = [
  ...HOME_VARIABLES,
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'CODEX_HOME',
  'XDG_CONFIG_HOME',
  'XDG_CONFIG_DIRS',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'KODO_TRUSTED_FOLDERS_PATH',
  'GEMINI_CLI_TRUSTED_FOLDERS_PATH',
  'KODO_TRUST_WORKSPACE',
  'GEMINI_CLI_TRUST_WORKSPACE',
];
const HOME_LOCATING = new Set(HOME_LOCATING_ENV_VARS);

/**
 * What an untrusted folder's `.env` may set: model credentials only (Gemini CLI's list, plus
 * kodo's other providers). Never a base URL, which could send the requests, keys included,
 * elsewhere.
 */
export const UNTRUSTED_ENV_ALLOWLIST = [
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_LOCATION',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENROUTER_API_KEY',
];

export interface EnvFileOptions {
  cwd: string;
  /** Read for KODO_HOME, GEMINI_CLI_HOME and HOME, and written to. */
  env: NodeJS.ProcessEnv;
  trusted: boolean;
  /** `advanced.excludedEnvVars`: names a project `.env` may not set. */
  excludedEnvVars?: readonly string[];
  /** `advanced.ignoreLocalEnv`: skip the project's files, use the home ones only. */
  ignoreLocalEnv?: boolean;
}

export interface EnvFileResult {
  /** The file read, if one was found. */
  path?: string;
  /** The variables it set (names only: values may be secrets). */
  applied: string[];
  /** Lines of the file that could not be used, one message each. */
  skipped: string[];
}

/** Finds the `.env` for this run and sets its variables in `options.env`. */
export async function loadEnvFile(options: EnvFileOptions): Promise<EnvFileResult> {
  const found = findEnvFile(options);
  if (!found) return { applied: [], skipped: [] };
  // Loaded only when there is a file: dotenv requires node:crypto (~20 internal modules, a few
  // ms) at load time, for encrypted files kodo does not read.
  const dotenv = await import('dotenv');
  // dotenv is CommonJS: bundled, its functions sit on the namespace's default export.
  const parse = dotenv.parse ?? (dotenv as unknown as { default: typeof dotenv }).default.parse;
  let values: Record<string, string>;
  try {
    values = parse(readFileSync(found.path));
  } catch {
    return { path: found.path, applied: [], skipped: [`${found.path} could not be read`] };
  }
  const excluded = new Set(found.project ? (options.excludedEnvVars ?? DEFAULT_EXCLUDED_ENV_VARS) : []);
  const allowed = options.trusted ? undefined : new Set(UNTRUSTED_ENV_ALLOWLIST);
  const applied: string[] = [];
  const skipped: string[] = [];
  // Compared ignoring case: Windows reads `Home` as `HOME`.
  const homes = Object.keys(values).filter((name) => HOME_LOCATING.has(name.toUpperCase()));
  if (homes.length > 0) {
    skipped.push(
      `${homes.join(', ')} in ${found.path} ${homes.length === 1 ? 'is' : 'are'} ignored: a .env file may not move kodo's, Gemini CLI's or Claude Code's configuration homes or the trust settings (set them in the environment instead)`,
    );
  }
  for (const [name, raw] of Object.entries(values)) {
    if (options.env[name] !== undefined || excluded.has(name) || homes.includes(name)) continue;
    let value = raw;
    if (allowed) {
      if (!allowed.has(name)) {
        skipped.push(`${name} is not loaded from ${found.path}: the folder is not trusted`);
        continue;
      }
      value = sanitizeCredential(raw);
    }
    options.env[name] = value;
    applied.push(name);
  }
  return { path: found.path, applied, skipped };
}

/**
 * The `.env` this run would load. `project`: a plain `.env` in the working directory or above
 * (not under `.kodo`/`.gemini`, and not the home fallback), where `excludedEnvVars` applies.
 * `home`: one of the home fallbacks, the user's rather than the folder's.
 */
export function findEnvFile(
  options: EnvFileOptions,
): { path: string; project: boolean; home?: true } | undefined {
  const home = resolve(options.env.HOME ?? homedir());
  if (!options.ignoreLocalEnv) {
    for (let dir = resolve(options.cwd); ; dir = dirname(dir)) {
      const candidates = [
        ...(options.trusted
          ? [
              { path: join(dir, '.kodo', '.env'), project: false },
              { path: join(dir, '.gemini', '.env'), project: false },
            ]
          : []),
        { path: join(dir, '.env'), project: dir !== home },
      ];
      const hit = candidates.find((candidate) => existsSync(candidate.path));
      if (hit) return hit;
      if (dirname(dir) === dir) break;
    }
  }
  const fallbacks = [
    ...(options.trusted ? [join(kodoHome(options.env), '.env'), join(geminiHome(options.env), '.env')] : []),
    join(home, '.env'),
  ];
  const path = fallbacks.find((candidate) => existsSync(candidate));
  return path ? { path, project: false, home: true } : undefined;
}

/** A credential from an untrusted file: printable characters a key can contain, nothing else. */
function sanitizeCredential(value: string): string {
  return value.replace(/[^A-Za-z0-9._\-/:+=]/g, '');
}
