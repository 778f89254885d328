import { ExitCode, FatalError } from './exit-codes';

export const STDIN_LIMIT_BYTES = 8 * 1024 * 1024;

/** Reads piped stdin up to the limit, warning when it had to cut. */
export async function readStdin(
  stdin: NodeJS.ReadableStream,
  onWarning: (message: string) => void,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (size + buffer.length > STDIN_LIMIT_BYTES) {
      chunks.push(buffer.subarray(0, STDIN_LIMIT_BYTES - size));
      truncated = true;
      break;
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  if (truncated) onWarning(`Warning: stdin input truncated to ${STDIN_LIMIT_BYTES} bytes.`);
  return Buffer.concat(chunks).toString('utf8');
}

/** `<stdin>\n\n<prompt>`, or whichever of the two there is. Empty input is an input error. */
export function assembleInput(stdinText: string | undefined, prompt: string | undefined): string {
  const parts = [
    stdinText?.trim() ? stdinText.replace(/\s+$/, '') : undefined,
    prompt?.trim() ? prompt : undefined,
  ];
  const input = parts.filter((part): part is string => part !== undefined).join('\n\n');
  if (input === '') {
    throw new FatalError(
      'No input provided via stdin. Input can be provided by piping data into kodo or using the --prompt option.',
      ExitCode.input,
    );
  }
  return input;
}
