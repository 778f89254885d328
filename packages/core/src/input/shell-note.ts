/** What the model learns of a `!command` the person ran, capped at 10,000 characters. */
const MAX_OUTPUT_CHARS = 10_000;

const escapeMarkdown = (text: string) => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`');

export function shellCommandNote(command: string, output: string): string {
  let shown = output;
  if (shown.length > MAX_OUTPUT_CHARS) shown = `${shown.slice(0, MAX_OUTPUT_CHARS)}\n... (truncated)`;
  return `I ran the following shell command:\n\`\`\`sh\n${escapeMarkdown(command)}\n\`\`\`\n\nThis produced the following result:\n\`\`\`\n${escapeMarkdown(shown)}\n\`\`\``;
}
