import { readdirSync } from 'node:fs';
import { platform, release } from 'node:os';

const LISTING_LIMIT = 40;
const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * Facts about the environment for the first user message: date, OS, working directory and a
 * short listing of it. One readdir, so it costs nothing at startup.
 */
export function environmentContext(options: { cwd: string; now?: Date }): string {
  const now = options.now ?? new Date();
  const date = now.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  return [
    'This is the kodo CLI. Some context about the environment:',
    `Today's date is ${date}.`,
    `Operating system: ${platform()} ${release()}.`,
    `Working directory: ${options.cwd}`,
    `Top-level entries of the working directory:\n${listing(options.cwd)}`,
  ].join('\n');
}

function listing(cwd: string): string {
  let entries: { name: string; dir: boolean }[];
  try {
    entries = readdirSync(cwd, { withFileTypes: true })
      .filter((entry) => !SKIPPED.has(entry.name))
      .map((entry) => ({ name: entry.name, dir: entry.isDirectory() }));
  } catch (error) {
    return `(could not list: ${(error as Error).message})`;
  }
  if (entries.length === 0) return '(empty)';
  entries.sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name));
  const shown = entries.slice(0, LISTING_LIMIT).map((entry) => `- ${entry.name}${entry.dir ? '/' : ''}`);
  if (entries.length > LISTING_LIMIT) shown.push(`- … and ${entries.length - LISTING_LIMIT} more`);
  return shown.join('\n');
}
