import type { Content, Part } from '@kodo/core/engine';

/** What `/export` writes: the conversation as the model saw it, plus who and when. */
export interface SessionExport {
  sessionId: string;
  model: string;
  exportedAt: string;
  history: Content[];
}

export type ExportFormat = 'md' | 'json';

/** The session as JSON: the history in kodo's message model, so it can be read back by a program. */
export function exportJson(data: SessionExport): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** The session as Markdown: turns as headings, tool calls and results as fenced blocks. */
export function exportMarkdown(data: SessionExport): string {
  const lines = [
    `# kodo session ${data.sessionId}`,
    '',
    `- **Model** ${data.model}`,
    `- **Exported** ${data.exportedAt}`,
  ];
  for (const content of data.history) {
    const body = content.parts.map(partMarkdown).filter((text) => text !== '');
    if (body.length === 0) continue;
    lines.push('', content.role === 'user' ? '## User' : '## Model', '', body.join('\n\n'));
  }
  return `${lines.join('\n')}\n`;
}

function partMarkdown(part: Part): string {
  if (part.functionCall) {
    return `**Tool call** \`${part.functionCall.name}\`\n\n${fenced(JSON.stringify(part.functionCall.args, null, 2), 'json')}`;
  }
  if (part.functionResponse) {
    const { response, name } = part.functionResponse;
    const output = typeof response.output === 'string' ? response.output : undefined;
    const error = typeof response.error === 'string' ? response.error : undefined;
    const shown = output ?? error ?? JSON.stringify(response, null, 2);
    return `**Tool ${error !== undefined && output === undefined ? 'error' : 'result'}** \`${name}\`\n\n${fenced(shown, '')}`;
  }
  if (part.inlineData) return `*(attached ${part.inlineData.mimeType})*`;
  if (part.text === undefined || part.text === '') return '';
  return part.thought ? `> *Thinking:* ${part.text.split('\n').join('\n> ')}` : part.text;
}

/** A fence longer than any run of backticks inside, so the block cannot end early. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}
