/**
 * Whether a subcommand's words ask for its usage: `--help`, `-h` or `help` before any `--`
 * (`kodo extensions --help`, `kodo skills list -h`). The usage then goes to stdout, exit 0.
 */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const words = end >= 0 ? args.slice(0, end) : args;
  return words[0] === 'help' || words.some((word) => word === '--help' || word === '-h');
}
