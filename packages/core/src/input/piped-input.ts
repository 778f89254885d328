/**
 * What a run without a person gets as its line when text is piped in: the piped text, then the
 * prompt (`-p`), as one line (`<piped>\n\n<prompt>`), so the prompt reads as the instruction that
 * follows the material. Either may be missing; blank counts as missing. Reading the pipe is the
 * front end's (core never reads process.stdin); the result goes to resolveInput like any line.
 */
export function combinePipedInput(piped: string | undefined, prompt: string | undefined): string | undefined {
  const parts = [
    // Trailing newlines of a pipe (`echo`, a file) are not part of what was meant.
    piped?.trim() ? piped.replace(/\s+$/, '') : undefined,
    prompt?.trim() ? prompt : undefined,
  ];
  const input = parts.filter((part): part is string => part !== undefined).join('\n\n');
  return input === '' ? undefined : input;
}
