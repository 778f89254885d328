/**
 * Large pastes are shown in the editor as one short placeholder, `[Pasted text #1 +42 lines]`,
 * so a pasted log does not fill the screen; the real text replaces the placeholder when the
 * prompt is sent.
 */
const COLLAPSE_MIN_LINES = 6;
const COLLAPSE_MIN_CHARS = 800;

export function shouldCollapsePaste(text: string): boolean {
  return text.length >= COLLAPSE_MIN_CHARS || text.split('\n').length >= COLLAPSE_MIN_LINES;
}

export function pastePlaceholder(id: number, text: string): string {
  const lines = text.split('\n').length;
  return lines > 1 ? `[Pasted text #${id} +${lines} lines]` : `[Pasted text #${id} ${text.length} chars]`;
}

/** Normalises pasted line endings: terminals send CR for each newline. */
export function normalizePaste(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** The prompt with every placeholder still present replaced by its pasted text. */
export function expandPastes(text: string, pastes: ReadonlyMap<string, string>): string {
  let result = text;
  for (const [placeholder, content] of pastes) result = result.split(placeholder).join(content);
  return result;
}
