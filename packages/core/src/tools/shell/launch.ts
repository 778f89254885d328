import { closeSync } from 'node:fs';

/**
 * What to spawn. `fds` are handed to the child as fd 3, 4, … (the sandbox's seccomp filter) and
 * closed here once the child has them.
 */
export interface Launch {
  file: string;
  args: string[];
  fds?: number[];
  /** Called once the command has ended with all it started, or was never spawned (see `PreparedCommand`). */
  release?: () => void;
}

/** Closes descriptors a launch handed over; they are the caller's, the child has its own copies. */
export function closeLaunchFds(launch: Launch | undefined): void {
  for (const fd of launch?.fds ?? []) {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  }
}
