/**
 * Fewer bytes for the same pixels. Ink writes each piece of styled text with its own opening and
 * closing codes, so a highlighted line of code reads `[fg]export[/fg] [fg]function[/fg]` and
 * an indented list marker `[fg]  [/fg]`: almost half of a streamed answer's bytes were style codes.
 * Two rewrites keep every visible cell as it was:
 * - a foreground colour, bold, dim or italic closed and opened again with only spaces (or nothing) between
 *   stays open over the spaces (those styles do not show on a space);
 * - the same styles around nothing but spaces are dropped.
 * Background, inverse, underline and strike-through do show on spaces and are left alone.
 */

/** Foreground colours (basic, bright, 256 and true colour): invisible on a space. */
const COLOUR = String.raw`(?:3[0-7]|9[0-7]|38;5;\d{1,3}|38;2;\d{1,3};\d{1,3};\d{1,3})`;
const IS_COLOUR = new RegExp(`^${COLOUR}$`);

/** `[close]spaces[open]`: a style closed and opened again with only spaces (or nothing) between. */
const REOPENED = new RegExp(String.raw`\u001b\[(39|22|23)m( *)\u001b\[(${COLOUR}|[123])m`, 'g');
/** `[colour]spaces[close]` → `spaces`. */
const COLOURED_SPACES = new RegExp(String.raw`\u001b\[${COLOUR}m( *)\u001b\[39m`, 'g');

/** Which codes a closing code ends: 39 colours, 22 bold and dim, 23 italic. */
function closes(close: string, params: string): boolean {
  if (close === '39') return IS_COLOUR.test(params);
  if (close === '22') return params === '1' || params === '2';
  return params === '3';
}

/** The code `close` ended: the last code before `index` that it closes, if any. */
function closedBefore(row: string, index: number, close: string): string | undefined {
  let at = row.lastIndexOf('\u001b[', index - 1);
  while (at !== -1) {
    const params = row.slice(at + 2, row.indexOf('m', at));
    if (params === close) return undefined;
    if (closes(close, params)) return params;
    at = row.lastIndexOf('\u001b[', at - 1);
  }
  return undefined;
}

/** Rows repeat from frame to frame (the input box, the footer): each is worked out once. */
const seen = new Map<string, string>();
const SEEN_LIMIT = 2000;

export function compactStyles(row: string): string {
  if (!row.includes('\u001b[')) return row;
  let compacted = seen.get(row);
  if (compacted === undefined) {
    if (seen.size >= SEEN_LIMIT) seen.clear();
    compacted = compact(row);
    seen.set(row, compacted);
  }
  return compacted;
}

function compact(row: string): string {
  const bare = row.replace(COLOURED_SPACES, '$1');
  return bare.replace(REOPENED, (match, close: string, spaces: string, open: string, offset: number) =>
    closes(close, open) && closedBefore(bare, offset, close) === open ? spaces : match,
  );
}
