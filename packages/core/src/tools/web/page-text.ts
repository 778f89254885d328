/**
 * Turns fetched bytes into text the model can read: the declared (or sniffed) charset is honoured,
 * HTML becomes Markdown (headings, links, lists and code survive; scripts, styles and page chrome
 * do not), other text passes through and binary content is refused. Then the pages share one
 * character budget fairly.
 */
import { FetchError, type FetchedPage } from './http-fetch';

export const TRUNCATION_SUFFIX = '\n\n... [Content truncated due to size limit] ...';

/** Elements whose text is noise for a reader: code, styling, embedded media, document metadata. */
const REMOVED_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'svg',
  'head',
  'title',
  'meta',
  'link',
]);

/**
 * Comments and the elements that are pure noise, removed before parsing: on real pages they are
 * most of the bytes, and turndown with its DOM parser costs about 2 ms per KB of HTML.
 */
const NOISE = /<!--[\s\S]*?-->|<(script|style|noscript|template|svg|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;

/**
 * HTML converted per page, after removing the noise. No page can contribute more than the
 * 250,000-character budget anyway, and this bounds the conversion at about two seconds.
 */
export const MAX_HTML_CHARS = 1_000_000;

const TEXT_TYPES = [
  /^text\//,
  /^application\/(json|xml|javascript|ecmascript|x-javascript|yaml|x-yaml|toml|x-sh|sql|graphql)\b/,
  /^application\/[\w.+-]+\+(json|xml)\b/,
];

export async function pageToText(page: FetchedPage): Promise<string> {
  const mime = page.contentType.split(';')[0]!.trim();
  const html =
    mime === 'text/html' || mime === 'application/xhtml+xml' || (mime === '' && looksLikeHtml(page.body));
  if (!html && !TEXT_TYPES.some((pattern) => pattern.test(mime)) && (mime !== '' || isBinary(page.body))) {
    throw new FetchError(
      `Unsupported content type "${mime || 'binary'}": only text and HTML pages can be read`,
    );
  }
  const text = decode(page.body, charsetOf(page.contentType) ?? (html ? metaCharset(page.body) : undefined));
  return html ? htmlToMarkdown(text) : text;
}

export async function htmlToMarkdown(html: string): Promise<string> {
  const cleaned = html.replace(NOISE, ' ');
  const cut = cleaned.length > MAX_HTML_CHARS;
  // Loaded on the first HTML page: turndown and its DOM parser are not needed for anything else.
  const { default: TurndownService } = await import('turndown');
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  // What the regex left (an unclosed tag, say) is dropped by the parser-based filter.
  service.remove((node) => REMOVED_ELEMENTS.has(node.nodeName.toLowerCase()));
  const markdown = service
    .turndown(cut ? cleaned.slice(0, MAX_HTML_CHARS) : cleaned)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return cut ? markdown + TRUNCATION_SUFFIX : markdown;
}

/**
 * Cuts texts so that together they fit `budget` characters. Short texts keep everything; what
 * they leave over is split evenly among the longer ones, so one huge page cannot crowd out the
 * rest. A cut text ends with TRUNCATION_SUFFIX, which counts against its share.
 */
export function shareBudget(texts: readonly string[], budget: number): string[] {
  const order = texts.map((_, index) => index).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const limits = new Array<number>(texts.length).fill(0);
  let remaining = budget;
  let left = texts.length;
  for (const index of order) {
    const share = Math.floor(remaining / left);
    limits[index] = Math.min(texts[index]!.length, share);
    remaining -= limits[index]!;
    left -= 1;
  }
  return texts.map((text, index) => {
    const limit = limits[index]!;
    if (text.length <= limit) return text;
    let end = Math.max(0, limit - TRUNCATION_SUFFIX.length);
    // Never split a surrogate pair.
    if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    return text.slice(0, end) + TRUNCATION_SUFFIX;
  });
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function charsetOf(contentType: string): string | undefined {
  const match = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType);
  return match?.[1];
}

/** `<meta charset="…">` or the http-equiv form, in the first bytes of an HTML page. */
function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 4096).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return match?.[1];
}

function decode(body: Buffer, charset: string | undefined): string {
  if (charset) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // An unknown label: fall back to UTF-8, which is what most pages are anyway.
    }
  }
  return new TextDecoder('utf-8').decode(body);
}

function looksLikeHtml(body: Buffer): boolean {
  const head = body.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body)[\s>]/.test(head);
}

function isBinary(body: Buffer): boolean {
  return body.subarray(0, 8000).includes(0);
}
