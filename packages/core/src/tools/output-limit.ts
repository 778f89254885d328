import { join } from 'node:path';
import { fsPromises } from '../utils/fs-async';

/** How much tool output the model may read in one result (`tools.truncateToolOutputThreshold`). */
export interface OutputLimit {
  /** Characters; 0 or less disables the limit. */
  thresholdChars: number;
  /** Where the full text of a cut output is saved (`<dir>/tool-outputs/session-<prompt>/…`). */
  spillDir: string | undefined;
}

export const DEFAULT_OUTPUT_THRESHOLD_CHARS = 40_000;

/**
 * Caps one tool output for the model: past the threshold it keeps the first 20% and the last 80%
 * (the end of a log is where errors are), saves the whole text to a file and says where. The one
 * place every tool's output is cut, so the model never receives raw megabytes.
 */
export async function capToolOutput(
  text: string,
  options: { limit: OutputLimit; callId: string; promptId: string },
): Promise<string> {
  const { thresholdChars, spillDir } = options.limit;
  if (thresholdChars <= 0 || text.length <= thresholdChars) return text;
  const headChars = Math.floor(thresholdChars * 0.2);
  const tailChars = Math.floor(thresholdChars * 0.8);
  const omitted = text.length - headChars - tailChars;
  const savedTo = spillDir ? await spill(text, spillDir, options) : undefined;
  return [
    `Output too large. Showing first ${group(headChars)} and last ${group(tailChars)} characters. For full output see: ${savedTo ?? '(not saved: no project temp directory)'}`,
    text.slice(0, headChars),
    `... [${group(omitted)} characters omitted] ...`,
    text.slice(text.length - tailChars),
  ].join('\n');
}

async function spill(
  text: string,
  spillDir: string,
  options: { callId: string; promptId: string },
): Promise<string | undefined> {
  const dir = join(spillDir, 'tool-outputs', `session-${safeName(options.promptId)}`);
  const file = join(dir, `${safeName(options.callId)}.txt`);
  try {
    const { mkdir, writeFile } = await fsPromises();
    await mkdir(dir, { recursive: true });
    await writeFile(file, text, 'utf8');
    return file;
  } catch {
    return undefined;
  }
}

function safeName(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, '_').toLowerCase();
}

/** 8000 → "8,000", without loading ICU (toLocaleString). */
export function group(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
