import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, shellQuote, TmuxSession } from '../src/tmux';

describe.skipIf(!hasTmux())('TmuxSession.kill', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('returns only once the program in the pane has ended, so its last writes land before the test cleans up', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kodo-tmux-kill-'));
    const script = join(dir, 'slow-exit.cjs');
    const marker = join(dir, 'written-on-exit');
    // Like kodo writing Node's compile cache as it exits: the hang-up starts a last write 300 ms later.
    writeFileSync(
      script,
      `process.on('SIGHUP', () => setTimeout(() => { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'done'); process.exit(0); }, 300));\n` +
        `console.log('ready'); setInterval(() => {}, 1000);\n`,
    );
    const session = new TmuxSession({
      command: `${shellQuote(process.execPath)} ${shellQuote(script)}`,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    await session.waitFor('ready');
    session.kill();
    expect(existsSync(marker)).toBe(true);
  });
});
