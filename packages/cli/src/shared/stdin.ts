/**
 * Piped stdin for the CLI: reading it (within a size limit) and the command line's answer when a
 * run without a person has no input. What piped text and a prompt mean together is core's
 * (`combinePipedInput`, input/piped-input.ts); the reading stays here, in the process that owns stdin.
 */
import { fstatSync, readSync } from 'node:fs';
import { isatty } from 'node:tty';
import { combinePipedInput } from '@kodo/core/engine';
import { ExitCode, FatalError } from './exit-codes';

export const STDIN_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Input past the limit is refused whole (exit 42) rather than cut: a prompt whose end was
 * silently dropped gets an answer to a question that was never asked.
 */
function tooLarge(): FatalError {
  return new FatalError(
    `The input on stdin is larger than ${STDIN_LIMIT_BYTES / 1024 / 1024} MiB, the most kodo reads; nothing was sent. Pipe in less, or name the files in the prompt so the model reads what it needs.`,
    ExitCode.input,
  );
}

/**
 * The text piped into kodo, or undefined when stdin is a terminal (or closed). A file or device
 * (`< file`, `/dev/null`) is read synchronously — it cannot block, and this skips creating the
 * stdin stream; a pipe or socket is read as a stream until its writer closes it.
 */
export async function readPipedStdin(): Promise<string | undefined> {
  if (isatty(0)) return undefined;
  let stat: ReturnType<typeof fstatSync>;
  try {
    stat = fstatSync(0);
  } catch {
    return undefined;
  }
  if (stat.isFile() || stat.isCharacterDevice()) return readFdSync(0);
  return readStdin(process.stdin);
}

function readFdSync(fd: number): string {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(1 << 16, STDIN_LIMIT_BYTES - size + 1));
    const read = readSync(fd, buffer, 0, buffer.length, null);
    if (read === 0) break;
    chunks.push(buffer.subarray(0, read));
    size += read;
    if (size > STDIN_LIMIT_BYTES) throw tooLarge();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a stream to its end; past the limit, a FatalError (exit 42). */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (size + buffer.length > STDIN_LIMIT_BYTES) throw tooLarge();
    chunks.push(buffer);
    size += buffer.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The line of a run without a person: piped text and the prompt as core combines them
 * (combinePipedInput). Neither is an input error (exit 42), worded for the command line.
 */
export function assembleInput(stdinText: string | undefined, prompt: string | undefined): string {
  const input = combinePipedInput(stdinText, prompt);
  if (input === undefined) {
    throw new FatalError(
      'No input provided via stdin. Input can be provided by piping data into kodo or using the --prompt option.',
      ExitCode.input,
    );
  }
  return input;
}
