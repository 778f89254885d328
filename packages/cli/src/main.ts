// Entry point of the `kodo` bundle. `--version` and `--help` answer before anything else is
// loaded; every other path imports what it needs on demand.
import { HELP_TEXT } from './help';
import { KODO_VERSION } from './version';

// A closed pipe on stdout (`kodo … | head`) is a normal end, not a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${KODO_VERSION}\n`);
} else if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
  process.stdout.write(HELP_TEXT);
} else {
  const { runCli } = await import('./run');
  process.exitCode = await runCli(argv, { version: KODO_VERSION, helpText: HELP_TEXT });
}
