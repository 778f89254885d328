/**
 * What the three readers share when they list a project's sessions: the candidate files, each
 * file's head (id, start, first prompt) or the reason a damaged one is skipped.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ForeignListing, ForeignOrigin } from './types';

/** A file's mtime, or undefined when it is gone. */
export function modifiedAt(file: string): Date | undefined {
  try {
    return statSync(file).mtime;
  } catch {
    return undefined;
  }
}

/**
 * What the list makes of a head read (`readHeadLines`' count of lines): the head's result, or why
 * the file is skipped when it could not be read or holds not even one complete record.
 */
export function headOutcome<T>(
  file: string,
  lines: number | undefined,
  result: T | string | undefined,
): T | string | undefined {
  if (lines === undefined) return 'the file cannot be read';
  if (result === undefined && lines === 0 && sizeOf(file) > 0)
    return 'it holds no complete record (a damaged file?)';
  return result;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** What a head read found out about one file: the session's id, start and title. */
export interface SessionHead {
  id: string;
  startTime: string;
  title: string;
}

/**
 * A tool's listing from its candidate files: each file's head read by `headOf`, which returns the
 * head, a reason to skip a damaged file, or undefined for a file that is no session of the list
 * (another project's, a subagent's, one without a prompt).
 */
export function listingOf(
  origin: ForeignOrigin,
  files: readonly string[],
  headOf: (file: string) => SessionHead | string | undefined,
): ForeignListing {
  const listing: ForeignListing = { sessions: [], skipped: [] };
  for (const file of files) {
    const head = headOf(file);
    if (typeof head === 'string') {
      listing.skipped.push({ origin, file, reason: head });
      continue;
    }
    const lastUpdated = head ? modifiedAt(file) : undefined;
    if (head && lastUpdated) listing.sessions.push({ origin, file, lastUpdated, ...head });
  }
  return listing;
}

/** The files of these folders whose names pass `test` (a missing folder has none). */
export function filesIn(dirs: readonly string[], test: (name: string) => boolean): string[] {
  return dirs.flatMap((dir) => {
    try {
      return readdirSync(dir)
        .filter(test)
        .map((name) => join(dir, name));
    } catch {
      return [];
    }
  });
}
