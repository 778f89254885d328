import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { parseJsonc } from '../utils/jsonc';
import { type CoverageLimits, DEFAULT_COVERAGE_LIMITS, projectCoverage } from './trust-coverage';

/**
 * `node:crypto` loads only when a fingerprint is computed: importing it costs 8–15 ms, and most
 * runs (an environment-trusted CI, `--skip-trust`, an untrusted folder) never hash anything.
 */
function createHash(algorithm: string) {
  const crypto = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  return crypto.createHash(algorithm);
}

/**
 * What the person saw when they trusted a folder. Trust is given to a folder's settings, hooks,
 * policies, commands, skills, agents and `.env` as they were (trust-coverage.ts lists them); if a
 * model (or a pulled commit) rewrites them afterwards, the old answer does not cover the new
 * content. So the trust decision is stored with a fingerprint of those
 * files, and a run that finds them changed asks again (headless: exits as for an untrusted
 * folder). Fingerprints live beside kodo's trust file, in `trustedFingerprints.json`
 * (`{"<real folder path>": "sha256:<hex>"}`), so Gemini CLI's trust file format is untouched.
 */

/** A fingerprint that never matches: the covered set could not be read whole (the reason follows). */
const UNVERIFIABLE = 'unverifiable:';

/**
 * The fingerprint of what the project would run once trusted (trust-coverage.ts), as it is now.
 * When that cannot be covered whole it is `unverifiable:<reason>`, which matches nothing, not
 * even itself: the folder then counts as changed at every start (fail closed).
 */
export function projectFingerprint(
  projectDir: string,
  options: { limits?: Partial<CoverageLimits> } = {},
): string {
  const coverage = projectCoverage(projectDir, { ...DEFAULT_COVERAGE_LIMITS, ...options.limits });
  if (!coverage.ok) return `${UNVERIFIABLE}${coverage.reason}`;
  const hash = createHash('sha256');
  const base = `${resolve(projectDir)}${sep}`;
  for (const entry of coverage.entries) {
    // Named relative to the project (a .env above it by its absolute path).
    hash.update(entry.path.startsWith(base) ? entry.path.slice(base.length) : entry.path).update('\0');
    if ('absent' in entry) hash.update('-\0');
    else hash.update(String(entry.content.length)).update('\0').update(entry.content);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** Whether the folder is as it was when trusted: the same fingerprint, and a verifiable one. */
export function fingerprintMatches(stored: string | undefined, current: string): boolean {
  return stored === current && !current.startsWith(UNVERIFIABLE);
}

/**
 * Whether a folder trusted by a rule is no longer as it was trusted: its fingerprint differs from
 * the stored one, or cannot be taken (fail closed). No stored fingerprint (trusted before they
 * were kept) is not a change: the current one is recorded then.
 */
export function changedSinceTrusted(stored: string | undefined, current: string): boolean {
  if (current.startsWith(UNVERIFIABLE)) return true;
  return stored !== undefined && stored !== current;
}

/** Why a fingerprint could not be taken, if it could not (for the messages that ask again). */
export function unverifiableReason(fingerprint: string | undefined): string | undefined {
  return fingerprint?.startsWith(UNVERIFIABLE) ? fingerprint.slice(UNVERIFIABLE.length) : undefined;
}

/** The fingerprints file beside kodo's trust file. */
export function fingerprintFilePath(trustFile: string): string {
  return join(dirname(trustFile), 'trustedFingerprints.json');
}

export class TrustFingerprints {
  constructor(private readonly path: string) {}

  /** The fingerprint stored with the folder's trust decision; undefined when none was. */
  get(folder: string): string | undefined {
    return this.read()[realOrResolved(folder)];
  }

  set(folder: string, fingerprint: string): void {
    const all = this.read();
    all[realOrResolved(folder)] = fingerprint;
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.path);
  }

  private read(): Record<string, string> {
    try {
      const value: unknown = parseJsonc(readFileSync(this.path, 'utf8'));
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
      return Object.fromEntries(
        Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
      );
    } catch {
      // Missing or unreadable: no fingerprints, so the next check records fresh ones.
      return {};
    }
  }
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Exit 55 when the folder's settings changed since it was trusted (headless). */
export const CHANGED_SINCE_TRUSTED_MESSAGE =
  "This project's settings, hooks, commands, skills, agents, policies or .env changed since you trusted it, " +
  'so kodo does not load them without asking again. Run kodo interactively in this folder to review and ' +
  'trust it again, or use `--skip-trust` (or `KODO_TRUST_WORKSPACE=true`) for one run if you made the ' +
  'change yourself.';

/** Exit 55 when what the folder would run cannot be fingerprinted whole (headless). */
export function unverifiableTrustMessage(reason: string): string {
  return (
    `kodo cannot check this project's settings, hooks, commands and the other files it runs against what ` +
    `you trusted (${reason}), so it does not load them without asking. Trust it again interactively for ` +
    'one run, or use `--skip-trust` (or `KODO_TRUST_WORKSPACE=true`).'
  );
}
