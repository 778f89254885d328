import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { claudeHome, geminiHome, HOME_VARIABLES, kodoHome, userHome } from '../config/paths';
import { currentPathStamp, isRacyChange, type RecordingDiscoveryFs } from '../utils/discovery-fs';
import { fnv1a } from '../utils/fnv1a';
import { readTextIfExists } from '../utils/fs-read';
import { isRecord } from '../utils/is-record';
import { writePrivateFile } from '../utils/private-file';
import { type DiscoveredFiles, type ExtensibilityOptions, isDiscoveredFiles } from './extensibility';

// Discovering what users bring reads some hundred paths (every folder kodo looks in, each
// extension's files, each skill and agent) on every start, though they rarely change between
// two runs. A discovery snapshot keeps what one run found together with the stamp of every path
// that discovery looked at (type, device, inode, size, mtime and ctime in ns; or "nothing
// there"). A later run with the same inputs whose paths all still have those stamps would read
// the same files and find the same, so it takes the result from the snapshot: one small read
// and a `stat` per path instead of the reads and parses.
//
// Why a stamp match means nothing changed: discovery reads only through a RecordingDiscoveryFs,
// which stamps each path before reading it. A file written since has a new ctime; a file or
// folder added, removed or renamed changes the stamp of the folder it is in (or of the path
// itself, when discovery asked about it). The environment is read only for where the homes are,
// which is part of the key with every other input.
//
// What it holds: what the files say (DiscoveredFiles), never the values this run resolves
// extensions with (environment, settings, secrets): resolveExtension runs on every start. It
// lives in the user's kodo home (0600 in a 0700 folder), per build and per project.

// 2: DiscoveredFiles has `notes`.
const VERSION = 2;
/** A bigger snapshot (long skill bodies…) would cost more to read than discovery saves. */
const MAX_SNAPSHOT_BYTES = 256 * 1024;
/** Snapshots kept (projects × builds × prompt or command runs); the oldest go first. */
const MAX_SNAPSHOTS = 32;

export interface SnapshotLocation {
  file: string;
  /** Every input of the discovery besides the files (compared in full, not just by the name). */
  key: string;
}

/** The environment discovery gets: the home variables only, so nothing else can change it. */
export function discoveryEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of HOME_VARIABLES) if (env[name] !== undefined) out[name] = env[name];
  return out;
}

export function snapshotLocation(options: ExtensibilityOptions & { buildKey: string }): SnapshotLocation {
  const env = options.env;
  const key = JSON.stringify({
    build: options.buildKey,
    cwd: options.cwd,
    trusted: options.trusted,
    only: options.only ?? null,
    skills: options.skillsEnabled !== false,
    commands: options.commands !== false,
    reserved: options.reservedCommands ?? [],
    homes: [kodoHome(env), geminiHome(env), claudeHome(env), userHome(env)],
  });
  return { file: join(snapshotDir(env), `${fnv1a(key).toString(16)}.json`), key };
}

function snapshotDir(env: NodeJS.ProcessEnv): string {
  return join(kodoHome(env), 'cache', 'discovery');
}

/**
 * What the snapshot at `location` found, if every path it looked at still has its stamp;
 * undefined when there is none, it is damaged, another build's or input's, or anything changed.
 */
export function readSnapshot(location: SnapshotLocation): DiscoveredFiles | undefined {
  const text = readTextIfExists(location.file);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(data) || data.version !== VERSION || data.key !== location.key) return undefined;
  const observations = data.observations;
  if (!Array.isArray(observations) || observations.length === 0) return undefined;
  for (const observation of observations) {
    if (!Array.isArray(observation) || typeof observation[0] !== 'string') return undefined;
    if (currentPathStamp(observation[0]) !== observation[1]) return undefined;
  }
  return isDiscoveredFiles(data.found) ? data.found : undefined;
}

/**
 * Keeps what a discovery through `fs` found. Not when a path it read changed within the racy
 * window before `startedMs` (a same-size edit in the same timestamp tick would keep the stamp),
 * nor when the snapshot would be large. Written beside and renamed into place, so a concurrent
 * run reads the old or the new one; best effort (a read-only home runs without snapshots).
 */
export function writeSnapshot(
  location: SnapshotLocation,
  fs: RecordingDiscoveryFs,
  found: DiscoveredFiles,
  startedMs: number,
): void {
  if (isRacyChange(fs.newestChangeNs(), startedMs)) return;
  const text = JSON.stringify({
    version: VERSION,
    key: location.key,
    observations: fs.observations(),
    found,
  });
  if (text.length > MAX_SNAPSHOT_BYTES) return;
  try {
    writePrivateFile(location.file, text);
  } catch {
    return;
  }
  pruneSnapshots(dirname(location.file));
}

function pruneSnapshots(dir: string): void {
  try {
    const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
    if (files.length <= MAX_SNAPSHOTS) return;
    const byAge = files
      .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => a.mtime - b.mtime);
    for (const old of byAge.slice(0, files.length - MAX_SNAPSHOTS)) rmSync(old.path, { force: true });
  } catch {
    // Pruning is housekeeping: the next save tries again.
  }
}
