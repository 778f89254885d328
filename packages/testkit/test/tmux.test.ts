import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, shellQuote, TmuxSession } from '../src/tmux';
import { createTempWorkspace, type TempWorkspace } from '../src/workspace';

describe.skipIf(!hasTmux())('TmuxSession.kill', () => {
  let workspace: TempWorkspace | undefined;
  afterEach(() => workspace?.cleanup());

  it('returns only once the program in the pane has ended, so its last writes land before the test cleans up', async () => {
    workspace = createTempWorkspace();
    const marker = join(workspace.root, 'written-on-exit');
    // Like kodo writing Node's compile cache as it exits: the hang-up starts a last write 300 ms later.
    const script = workspace.write(
      'slow-exit.cjs',
      `process.on('SIGHUP', () => setTimeout(() => { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'done'); process.exit(0); }, 300));\n` +
        `console.log('ready'); setInterval(() => {}, 1000);\n`,
    );
    const session = new TmuxSession({
      command: `${shellQuote(process.execPath)} ${shellQuote(script)}`,
      cwd: workspace.root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    await session.waitFor('ready');
    session.kill();
    expect(existsSync(marker)).toBe(true);
  });
});
