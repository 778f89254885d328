/**
 * Finds the URLs in a web_fetch prompt. The prompt is free text ("Summarize https://a.dev/x and
 * compare it with https://b.dev/y."), so a URL is whatever follows a `scheme://` up to the next
 * space, minus punctuation that belongs to the sentence or to Markdown around it.
 */

export interface PromptUrls {
  /** De-duplicated URLs to fetch, in prompt order, GitHub blob pages rewritten to raw files. */
  urls: string[];
  /** One line per malformed URL or unsupported protocol. */
  errors: string[];
}

const SCHEME_URL = /[a-z][a-z0-9+.-]*:\/\/\S*/i;
const TRAILING_PUNCTUATION = /[.,;:!?'"`>\]}*_]+$/;

export function parsePromptUrls(prompt: string): PromptUrls {
  const urls: string[] = [];
  const seen = new Set<string>();
  const errors: string[] = [];
  for (const token of prompt.split(/\s+/)) {
    const match = SCHEME_URL.exec(token);
    if (!match) continue;
    const candidate = trimUrl(match[0]);
    const scheme = candidate.slice(0, candidate.indexOf(':')).toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') {
      errors.push(`Unsupported protocol in URL: "${candidate}". Only http and https are supported.`);
      continue;
    }
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      errors.push(`Malformed URL detected: "${candidate}".`);
      continue;
    }
    if (!url.hostname) {
      errors.push(`Malformed URL detected: "${candidate}".`);
      continue;
    }
    const target = githubRawUrl(url) ?? url;
    target.hash = '';
    if (seen.has(target.href)) continue;
    seen.add(target.href);
    urls.push(target.href);
  }
  return { urls, errors };
}

/** Drops sentence punctuation and unbalanced closing brackets (`(see https://x.dev/a).`). */
function trimUrl(raw: string): string {
  let url = raw;
  for (;;) {
    const before = url;
    url = url.replace(TRAILING_PUNCTUATION, '');
    // Keep a `)` that closes a `(` inside the URL, as in Wikipedia's `Foo_(bar)`.
    if (url.endsWith(')') && count(url, '(') < count(url, ')')) url = url.slice(0, -1);
    if (url === before) return url;
  }
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

/**
 * `https://github.com/<owner>/<repo>/blob/<ref>/<path>` shows a file inside GitHub's page chrome;
 * the raw file at raw.githubusercontent.com is what the model wants to read.
 */
export function githubRawUrl(url: URL): URL | undefined {
  const host = url.hostname.toLowerCase();
  if (host !== 'github.com' && host !== 'www.github.com') return undefined;
  const segments = url.pathname.split('/');
  // ['', owner, repo, 'blob', ref, ...path]
  if (segments.length < 6 || segments[3] !== 'blob' || !segments[1] || !segments[2]) return undefined;
  const [, owner, repo, , ...rest] = segments;
  return new URL(`https://raw.githubusercontent.com/${owner}/${repo}/${rest.join('/')}`);
}
