import { readdirSync } from 'node:fs';
import { platform, release } from 'node:os';
import { compareCodeUnits } from '../utils/compare';

const LISTING_LIMIT = 40;
const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * Facts about the environment for the first user message: date, OS, working directory and a
 * short listing of it. One readdir, so it costs nothing at startup.
 */
export function environmentContext(options: { cwd: string; roots?: readonly string[]; now?: Date }): string {
  const now = options.now ?? new Date();
  const date = formatDate(now);
  // `--include-directories`: the model cannot use a directory it was never told of.
  const others = (options.roots ?? []).filter((root) => root !== options.cwd);
  return [
    'This is the kodo CLI. Some context about the environment:',
    `Today's date is ${date}.`,
    `Operating system: ${platform()} ${release()}.`,
    `Working directory: ${options.cwd}`,
    ...(others.length > 0 ? [`Other workspace directories the tools may use: ${others.join(', ')}`] : []),
    `Top-level entries of the working directory:\n${listing(options.cwd)}`,
  ].join('\n');
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * "Monday, November 30, 2026". Written out by hand: `toLocaleDateString` loads ICU data, which
 * costs ~20 ms of startup before the first request.
 */
export function formatDate(date: Date): string {
  return `${WEEKDAYS[date.getDay()]}, ${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
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
  entries.sort((a, b) => Number(b.dir) - Number(a.dir) || compareCodeUnits(a.name, b.name));
  const shown = entries.slice(0, LISTING_LIMIT).map((entry) => `- ${entry.name}${entry.dir ? '/' : ''}`);
  if (entries.length > LISTING_LIMIT) shown.push(`- … and ${entries.length - LISTING_LIMIT} more`);
  return shown.join('\n');
}
