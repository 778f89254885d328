import { readdirSync, readFileSync } from 'node:fs';
import { loadBuiltin } from '../../utils/builtin';

/**
 * Process-group plumbing for the shell tool. A command runs as the leader of its own group, so
 * everything it starts (pipelines, `&` jobs, subshells) can be signalled at once and none is
 * orphaned when the call is cancelled or times out.
 */

/** How long the group gets to exit after SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 2000;
const POLL_MS = 50;

/**
 * Live (non-zombie) members of a process group, read from /proc. Undefined where /proc is not
 * available. Zombies are skipped: they are dead, merely waiting for a parent (or an init that
 * may never come) to reap them.
 */
export function groupMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(entry);
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(Number(entry));
  }
  return members;
}

function readProcStat(pid: string): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid pgrp …`; comm may contain spaces and parentheses, so cut at the last `)`.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

export function isGroupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** SIGTERM to the whole group, then SIGKILL to whatever is left after the grace period. */
export async function terminateGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  // Taken here: this module shares a start-up chunk with code every run needs.
  const { setTimeout: sleep } = loadBuiltin('node:timers/promises');
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isGroupAlive(pgid)) return;
    await sleep(POLL_MS);
  }
  signalGroup(pgid, 'SIGKILL');
  // SIGKILL cannot be caught or ignored; give the kernel a moment to tear the processes down.
  for (let i = 0; i < 20 && isGroupAlive(pgid); i++) await sleep(25);
}
