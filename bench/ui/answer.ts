// The answer the UI benchmark streams, and the markers its runs look for on screen.

export const END_MARKER = 'kodo-bench-answer-end';
export const FIRST_MARKER = 'Benchmark answer';
/** A line of the answer as any Markdown renderer shows it (the heading, or a line of any section). */
export const ANSWER_LINE =
  /Benchmark answer|Section \d+: reading|Paragraph \d+ explains|item \d+\.\d|step\d+\(input|return input \*|\| step \||Done: kodo/;

/** A Markdown answer of about `bytes`: headings, paragraphs, lists, code and tables, no line repeated. */
function longMarkdownAnswer(bytes: number): string {
  let text = `# ${FIRST_MARKER}\n\n`;
  for (let section = 1; text.length < bytes - 200; section += 1) {
    text += `## Section ${section}: reading the module graph\n\n`;
    text += `Paragraph ${section} explains why **step ${section}** runs before step ${section + 1}: the loader resolves \`chunk-${section}.js\` first, then checks its exports against rule ${section % 13} and records the result in the table below.\n\n`;
    for (let item = 0; item < 4; item += 1)
      text += `- item ${section}.${item}: *check* \`value${item}\` against limit ${section * 7 + item}\n`;
    text += `\n\`\`\`ts\nexport function step${section}(input: number): number {\n  return input * ${section} + ${section % 7};\n}\n\`\`\`\n\n`;
    text += `| step | input | output |\n|---|---|---|\n| ${section} | ${section * 3} | ${section * 3 * section + (section % 7)} |\n\n`;
  }
  return `${text}Done: ${END_MARKER}\n`;
}

export const ANSWER = longMarkdownAnswer(41_700);
