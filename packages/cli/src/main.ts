// Entry point of `kodo`. Built as a small CommonJS file (dist/kodo.cjs): Node starts a CommonJS
// entry ~8 ms faster than an ES module one, so `--version` and `--help` answer at the speed of a
// bare `node`. Every other path imports the ES module bundle (dist/cli.mjs, code-split so each
// mode loads only what it needs).
import { HELP_TEXT } from './help';
import { KODO_VERSION } from './version';

// A closed pipe on stdout (`kodo … | head`) is a normal end, not a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

async function main(argv: string[]): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`${KODO_VERSION}\n`);
    return;
  }
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    process.stdout.write(HELP_TEXT);
    return;
  }
  const { runCli } = await import('./run');
  process.exitCode = await runCli(argv, { version: KODO_VERSION, helpText: HELP_TEXT });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `An unexpected critical error occurred: ${(error as Error)?.stack ?? String(error)}\n`,
  );
  process.exitCode = 1;
});
