import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { projectId } from '../config/project';
import { excludeFileText, largeFilesIn } from './checkpoints/excludes';
import { GitError, git, parseStatus, runGit, type ShadowGit } from './checkpoints/git';
import { SessionCheckpoints, type SessionCheckpointsOptions } from './checkpoints/session-checkpoints';

/**
 * Checkpoints: snapshots of the workspace in a shadow git repository under
 * `~/.kodo/history/<project id>`, taken before file-changing tool calls, so
 * `/restore` and `/rewind` can put the files back. The repository's git dir is kodo's own and its
 * work tree is the workspace: the project's `.git` is never touched, and the project needs no git
 * at all. Ignored files (the project's `.gitignore`s, dependency and cache dirs, `.kodoignore`)
 * and files over the size limit are left out, so they are neither copied nor ever deleted by a
 * restore.
 *
 * A snapshot asks `git status` what changed since the last one (the index keeps file stats, so an
 * unchanged tree of 10k files costs one stat pass) and stages only that: after the first,
 * a checkpoint takes tens of milliseconds. Each checkpoint is a commit plus a small JSON file with
 * what it was taken for. All git work of one store runs one operation at a time.
 */

export interface CheckpointToolCall {
  name: string;
  args: Record<string, unknown>;
  callId: string;
}

export interface CheckpointInfo {
  /** `<time>-<file name>-<tool>`: sortable, readable in `/restore`'s list. */
  id: string;
  /** ISO 8601. */
  createdAt: string;
  /** The snapshot commit in the shadow repository. */
  commit: string;
  /** What the snapshot was taken for. */
  label: string;
  /** The call about to run, for `/restore` to propose again. */
  toolCall?: CheckpointToolCall;
  sessionId?: string;
  promptId?: string;
  /** The conversation position: history entries before the model turn that asked for the call. */
  historyLength?: number;
  /** Fingerprint of the history entry before that position (detects compression or another session). */
  historyFingerprint?: string;
}

export interface CheckpointStoreOptions {
  workspaceRoot: string;
  /** `~/.kodo/history/<project id>` (see `checkpointHistoryDir`). */
  historyDir: string;
  /** Files larger than this are left out of snapshots (default 8 MiB). */
  maxFileBytes?: number;
  /** PATH for finding git (default: this process's). */
  path?: string;
  now?: () => Date;
}

export type NewCheckpoint = Omit<CheckpointInfo, 'id' | 'createdAt' | 'commit'>;

export interface FilesRestoreResult {
  /** Paths (relative to the workspace) written, recreated or removed. */
  changed: string[];
  /** The snapshot of the files as they were just before, itself a checkpoint (undo). */
  before: CheckpointInfo;
}

export const DEFAULT_MAX_CHECKPOINT_FILE_BYTES = 8 * 1024 * 1024;
const BRANCH = 'refs/heads/main';
/** update-ref's "must not exist yet". */
const ZERO_ID = '0000000000000000000000000000000000000000';
const REPO_CONFIG = [
  '[core]',
  // Fast status on big trees: cached untracked-dir scans.
  '\tuntrackedCache = true',
  '\tautocrlf = false',
  '\tquotePath = false',
  '[index]',
  '\tversion = 4',
  '[commit]',
  '\tgpgSign = false',
  '[gc]',
  // Never pause a checkpoint for housekeeping.
  '\tauto = 0',
  '',
].join('\n');

/** `~/.kodo/history/<project id>`. */
export function checkpointHistoryDir(kodoHomeDir: string, workspaceRoot: string): string {
  return join(kodoHomeDir, 'history', projectId(workspaceRoot));
}

export class CheckpointStore {
  private readonly repo: ShadowGit;
  private readonly maxFileBytes: number;
  private readonly now: () => Date;
  private readonly metaDir: string;
  private queue: Promise<unknown> = Promise.resolve();
  private initialized = false;
  /** The branch's commit as this store last saw it (undefined: no snapshot yet). */
  private head: string | undefined;

  constructor(private readonly options: CheckpointStoreOptions) {
    this.repo = {
      gitDir: join(options.historyDir, 'git'),
      workTree: options.workspaceRoot,
      path: options.path ?? process.env.PATH,
    };
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_CHECKPOINT_FILE_BYTES;
    this.now = options.now ?? (() => new Date());
    this.metaDir = join(options.historyDir, 'checkpoints');
  }

  /** The checkpoints of one session in this store (what `/restore` and `/rewind` use). */
  forSession(options: Omit<SessionCheckpointsOptions, 'store'>): SessionCheckpoints {
    return new SessionCheckpoints({ ...options, store: this });
  }

  /** Snapshots the workspace and records a checkpoint. Throws GitError (e.g. git missing). */
  create(checkpoint: NewCheckpoint): Promise<CheckpointInfo> {
    return this.serial(async () => {
      const commit = await this.snapshotLocked(checkpoint.label);
      return this.record(checkpoint, commit);
    });
  }

  /** Snapshots the workspace without recording a checkpoint; returns the commit. */
  snapshot(label: string): Promise<string> {
    return this.serial(() => this.snapshotLocked(label));
  }

  /** Resolves when no git work of this store is running or queued (tests, orderly shutdown). */
  async idle(): Promise<void> {
    let seen: Promise<unknown> | undefined;
    while (seen !== this.queue) {
      seen = this.queue;
      await seen;
    }
  }

  /** Every checkpoint, oldest first. */
  list(): CheckpointInfo[] {
    let names: string[];
    try {
      names = readdirSync(this.metaDir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    const checkpoints: CheckpointInfo[] = [];
    for (const name of names) {
      try {
        checkpoints.push(JSON.parse(readFileSync(join(this.metaDir, name), 'utf8')) as CheckpointInfo);
      } catch {
        // A half-written or foreign file: not a checkpoint.
      }
    }
    return checkpoints.sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.id, b.id));
  }

  get(id: string): CheckpointInfo | undefined {
    return this.list().find((checkpoint) => checkpoint.id === id);
  }

  /**
   * Puts the workspace's files back as they were at `commit`: changed files rewritten, deleted
   * ones recreated, files created since removed. Ignored and oversized files are left alone. The
   * current state is checkpointed first, so a restore can itself be undone.
   */
  restoreFiles(commit: string, label: string): Promise<FilesRestoreResult> {
    // Only ids this store wrote: never something git could read as an option or a revision range.
    if (!/^[0-9a-f]{40,64}$/.test(commit))
      return Promise.reject(new GitError(`Not a snapshot id: ${commit}`));
    return this.serial(async () => {
      const current = await this.snapshotLocked(`Before ${label}`);
      const before = this.record({ label: `Before ${label}` }, current);
      const [fromTree, toTree] = (
        await git(this.repo, ['rev-parse', `${current}^{tree}`, `${commit}^{tree}`])
      )
        .trim()
        .split('\n');
      if (!fromTree || !toTree) throw new GitError(`Unknown snapshot ${commit}`);
      const diff = await git(this.repo, [
        'diff-tree',
        '-r',
        '-z',
        '--no-renames',
        '--name-only',
        fromTree,
        toTree,
      ]);
      const changed = diff.split('\0').filter((path) => path !== '');
      if (changed.length > 0) {
        // A two-tree merge from the snapshot just taken (the index matches the work tree) to the
        // target: only differing files are written or removed, and the index keeps its stat
        // cache, so the next snapshot stays fast.
        await git(this.repo, ['read-tree', '-m', '-u', fromTree, toTree]);
        await this.commit(toTree, label);
      }
      return { changed, before };
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ensureRepo(): Promise<void> {
    if (this.initialized) return;
    const { gitDir } = this.repo;
    if (!existsSync(join(gitDir, 'HEAD'))) {
      mkdirSync(gitDir, { recursive: true });
      await git(this.repo, ['init', '--quiet', '--initial-branch=main']);
      // One append instead of a `git config` process per key.
      appendFileSync(join(gitDir, 'config'), REPO_CONFIG);
    }
    this.head = await this.readHead();
    this.initialized = true;
  }

  private async readHead(): Promise<string | undefined> {
    const result = await runGit(this.repo, ['rev-parse', '--verify', '--quiet', BRANCH]);
    return result.code === 0 ? result.stdout.trim() : undefined;
  }

  private async snapshotLocked(label: string): Promise<string> {
    await this.ensureRepo();
    const excludePath = join(this.repo.gitDir, 'info', 'exclude');
    const previousExcludes = readText(excludePath);
    const large = new Set(largeFilesIn(previousExcludes).filter((path) => this.isLarge(path)));
    this.writeExcludes(excludePath, previousExcludes, large);

    const status = parseStatus(
      await git(this.repo, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']),
    );
    const toStage: string[] = [];
    const toUntrack: string[] = [];
    let newlyLarge = false;
    for (const entry of status) {
      if (entry.path.endsWith('/')) {
        // An untracked directory under -uall is a nested repository: leave it to its own git.
        large.add(entry.path.slice(0, -1));
        newlyLarge = true;
        continue;
      }
      const deleted = entry.workTree === 'D';
      if (!deleted && entry.workTree !== ' ' && this.isLarge(entry.path)) {
        large.add(entry.path);
        newlyLarge = true;
        if (entry.workTree !== '?') toUntrack.push(entry.path);
        continue;
      }
      toStage.push(entry.path);
    }
    if (newlyLarge) this.writeExcludes(excludePath, readText(excludePath), large);
    if (toStage.length === 0 && toUntrack.length === 0 && this.head) return this.head;
    if (toUntrack.length > 0) {
      await git(
        this.repo,
        ['rm', '--cached', '-q', '--pathspec-from-file=-', '--pathspec-file-nul'],
        nulList(toUntrack),
      );
    }
    if (toStage.length > 0) {
      const staged = await git(
        this.repo,
        ['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'],
        nulList(toStage),
      ).catch((error: unknown) => error);
      // A file that vanished between status and add fails the pathspec: stage everything instead.
      if (staged instanceof GitError) await git(this.repo, ['add', '-A']);
      else if (staged instanceof Error) throw staged;
    }
    const tree = (await git(this.repo, ['write-tree'])).trim();
    return this.commit(tree, label);
  }

  /**
   * Commits `tree` on top of the branch. The ref moves only if nobody else moved it meanwhile
   * (another kodo in the same project); if someone did, the commit is redone on their head.
   */
  private async commit(tree: string, label: string): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      const parent = this.head;
      const commit = (
        await git(this.repo, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', label])
      ).trim();
      const moved = await runGit(this.repo, ['update-ref', BRANCH, commit, parent ?? ZERO_ID]);
      if (moved.code === 0) {
        this.head = commit;
        return commit;
      }
      this.head = await this.readHead();
      if (attempt >= 3) throw new GitError(`git update-ref failed: ${moved.stderr.trim()}`);
    }
  }

  private isLarge(relative: string): boolean {
    try {
      const stat = lstatSync(join(this.options.workspaceRoot, relative));
      return stat.isFile() && stat.size > this.maxFileBytes;
    } catch {
      return false;
    }
  }

  private writeExcludes(path: string, previous: string, large: Set<string>): void {
    const text = excludeFileText(this.options.workspaceRoot, large);
    // Rewritten only on change: git's untracked cache is keyed on this file.
    if (text === previous) return;
    mkdirSync(join(this.repo.gitDir, 'info'), { recursive: true });
    writeFileSync(path, text);
  }

  private record(checkpoint: NewCheckpoint, commit: string): CheckpointInfo {
    const createdAt = this.now().toISOString();
    const target = checkpoint.toolCall?.args.file_path;
    const parts = [
      createdAt.replace(/:/g, '-').replace(/\./g, '_'),
      ...(typeof target === 'string' && target !== '' ? [basename(target)] : []),
      checkpoint.toolCall?.name ?? 'snapshot',
    ];
    const stem = parts.join('-').replace(/[^A-Za-z0-9._-]/g, '_');
    mkdirSync(this.metaDir, { recursive: true });
    let id = stem;
    for (let n = 2; existsSync(join(this.metaDir, `${id}.json`)); n += 1) id = `${stem}-${n}`;
    const info: CheckpointInfo = { id, createdAt, commit, ...checkpoint };
    const file = join(this.metaDir, `${id}.json`);
    writeFileSync(`${file}.tmp`, `${JSON.stringify(info, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
    return info;
  }
}

/** Plain code-unit order (ISO times and ids sort correctly; no locale data needed). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function nulList(paths: string[]): string {
  return `${paths.join('\0')}\0`;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
