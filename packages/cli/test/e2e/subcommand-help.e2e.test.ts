import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();

describe('--help on every subcommand', () => {
  const commands: [string[], string][] = [
    [['demo', '--help'], 'Usage: kodo demo'],
    [['mcp', '--help'], 'Usage: kodo mcp'],
    [['mcp', 'add', '--help'], 'Usage: kodo mcp add'],
    [['extensions', '--help'], 'Usage: kodo extensions'],
    [['extensions', 'install', '-h'], 'Usage: kodo extensions'],
    [['skills', '--help'], 'Usage: kodo skills'],
    [['agents', '--help'], 'Usage: kodo agents'],
    [['hooks', '--help'], 'Usage: kodo hooks'],
    [['models', '--help'], 'Usage: kodo models'],
    [['doctor', '--help'], 'Usage: kodo doctor'],
    [['completion', '--help'], 'Usage: kodo completion'],
  ];
  for (const [args, usage] of commands) {
    it(`kodo ${args.join(' ')} prints its usage and exits 0`, async () => {
      const run = await runKodo(args, {
        cwd: dirs.workspace,
        env: { KODO_HOME: dirs.home, HOME: dirs.home },
      });
      expect(run.stdout.startsWith(usage), run.stdout + run.stderr).toBe(true);
      expect(run.code).toBe(0);
    });
  }
});
