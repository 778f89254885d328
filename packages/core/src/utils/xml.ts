/** Escapes text for use inside the XML-like blocks of the system prompt. */
export function escapeXml(text: string): string {
  // Names, descriptions and paths rarely hold any of these: test before replacing (each pattern
  // is compiled at its first use, and this runs for every skill and agent at start-up).
  if (!text.includes('&') && !text.includes('<') && !text.includes('>')) return text;
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
