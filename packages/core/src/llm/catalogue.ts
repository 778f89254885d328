/**
 * The built-in model catalogue: `catalogue.generated.ts` (from models.dev, refreshed by
 * scripts/catalogue/refresh.mjs). The generated module is one string, so start-up pays for a
 * string constant, not for a table of objects. A lookup by exact id finds its line with one
 * string search and parses only that line; the index of every id is built only when an id has
 * no line of its own (a dated snapshot, `gpt-5-2025-08-07`) or for listings. A cold start looks
 * up one or two models, and parsing every line costs milliseconds before V8 has compiled the
 * parser.
 */
import { CATALOGUE_LINES } from './catalogue.generated';
import type { CatalogueProvider, ModelInfo, ModelPrice } from './model-info';

// Memos of constant data, filled on the first lookup: every caller gets the same answers.
let lineById: Map<string, string> | undefined;
const parsedById = new Map<string, ModelInfo>();

function lines(): Map<string, string> {
  if (!lineById) {
    lineById = new Map();
    for (const line of CATALOGUE_LINES.split('\n')) {
      const start = line.indexOf('|') + 1;
      const end = line.indexOf('|', start);
      if (start === 0 || end < 0) continue;
      const id = line.slice(start, end);
      // Ids are unique across the three vendors; should one repeat, the first line wins.
      if (!lineById.has(id)) lineById.set(id, line);
    }
  }
  return lineById;
}

/** Every model id of the catalogue. */
export function catalogueIds(): Iterable<string> {
  return lines().keys();
}

/** The catalogue's entry for exactly this id. */
export function catalogueEntry(id: string): ModelInfo | undefined {
  let entry = parsedById.get(id);
  if (!entry) {
    const line = lineById ? lineById.get(id) : lineOf(id);
    entry = line === undefined ? undefined : parseLine(line);
    if (entry) parsedById.set(id, entry);
  }
  return entry;
}

/** The line whose id field is `id`, found without splitting the text. */
function lineOf(id: string): string | undefined {
  const needle = `|${id}|`;
  for (let at = CATALOGUE_LINES.indexOf(needle); at >= 0; at = CATALOGUE_LINES.indexOf(needle, at + 1)) {
    const start = CATALOGUE_LINES.lastIndexOf('\n', at) + 1;
    // The id is the second field: nothing but the provider before it on its line.
    if (CATALOGUE_LINES.lastIndexOf('|', at - 1) < start) {
      const end = CATALOGUE_LINES.indexOf('\n', at);
      return CATALOGUE_LINES.slice(start, end < 0 ? undefined : end);
    }
  }
  return undefined;
}

/** Every model of the catalogue, sorted by provider and id (`kodo models`, `/model`). */
export function catalogueEntries(): ModelInfo[] {
  const entries: ModelInfo[] = [];
  for (const id of catalogueIds()) {
    const entry = catalogueEntry(id);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** Lines as scripts/catalogue/format.mjs writes them; a malformed line is skipped. */
export function parseCatalogue(text: string): ModelInfo[] {
  const parsed: ModelInfo[] = [];
  for (const line of text.split('\n')) {
    const entry = parseLine(line);
    if (entry) parsed.push(entry);
  }
  return parsed;
}

const PROVIDERS: readonly string[] = ['gemini', 'openai', 'anthropic'];

function parseLine(line: string): ModelInfo | undefined {
  const fields = line.split('|');
  const provider = fields[0] ?? '';
  const id = fields[1];
  if (!PROVIDERS.includes(provider) || !id) return undefined;
  const flags = fields[5] ?? '';
  const info: ModelInfo = {
    id,
    provider: provider as CatalogueProvider,
    reasoning: flags.includes('r'),
    images: flags.includes('i'),
    tools: flags.includes('t'),
    responsesApi: flags.includes('R'),
  };
  if (fields[2]) info.family = fields[2];
  const context = Number(fields[3]);
  if (context > 0) info.contextWindow = context;
  const maxOutput = Number(fields[4]);
  if (maxOutput > 0) info.maxOutputTokens = maxOutput;
  const price = priceAt(fields, 6);
  if (price) info.price = price;
  const above = Number(fields[10]);
  const longPrice = priceAt(fields, 11);
  if (above > 0 && longPrice) info.longContext = { above, price: longPrice };
  return info;
}

/** input, output, cacheRead, cacheWrite from `fields[at]` on; no price without input and output. */
function priceAt(fields: string[], at: number): ModelPrice | undefined {
  const [input, output, cacheRead, cacheWrite] = [fields[at], fields[at + 1], fields[at + 2], fields[at + 3]];
  if (!input || !output) return undefined;
  const price: ModelPrice = { input: Number(input), output: Number(output) };
  if (cacheRead) price.cacheRead = Number(cacheRead);
  if (cacheWrite) price.cacheWrite = Number(cacheWrite);
  return price;
}
