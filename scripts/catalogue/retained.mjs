// A refresh never forgets a model. Sources drop models the vendors still serve (models.dev
// trims retired ids; the npm snapshot lists only current ones), and a person on such a model
// would lose its window and price: a dollar budget would then refuse to run. So the refreshed
// catalogue keeps every model of the previous one that the new data no longer lists, and the
// hand-kept RETIRED records below (models an earlier source dropped before this rule existed).
// A model the new data does list always takes the new data.
//
// RETIRED: list prices from the vendors' pricing pages when the models were current (US dollars
// per million tokens; Anthropic's cache writes are the 5-minute ones).

const anthropic = (id, family, maxOutputTokens, reasoning, price) => ({
  provider: 'anthropic',
  id,
  family,
  contextWindow: 200_000,
  maxOutputTokens,
  reasoning,
  images: true,
  tools: true,
  responsesApi: false,
  price,
});

export const RETIRED = [
  {
    provider: 'gemini',
    id: 'gemini-3-pro-preview',
    family: 'gemini-pro',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    reasoning: true,
    images: true,
    tools: true,
    responsesApi: false,
    price: { input: 2, output: 12, cacheRead: 0.2 },
    longContext: { above: 200_000, price: { input: 4, output: 18, cacheRead: 0.4 } },
  },
  {
    provider: 'gemini',
    id: 'gemini-2.0-flash',
    family: 'gemini-flash',
    contextWindow: 1_048_576,
    maxOutputTokens: 8_192,
    reasoning: false,
    images: true,
    tools: true,
    responsesApi: false,
    price: { input: 0.1, output: 0.4, cacheRead: 0.025 },
  },
  anthropic('claude-opus-4-1', 'claude-opus', 32_000, true, {
    input: 15,
    output: 75,
    cacheRead: 1.5,
    cacheWrite: 18.75,
  }),
  anthropic('claude-opus-4', 'claude-opus', 32_000, true, {
    input: 15,
    output: 75,
    cacheRead: 1.5,
    cacheWrite: 18.75,
  }),
  anthropic('claude-sonnet-4', 'claude-sonnet', 64_000, true, {
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite: 3.75,
  }),
  anthropic('claude-3-7-sonnet', 'claude-sonnet', 64_000, true, {
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite: 3.75,
  }),
  anthropic('claude-3-5-haiku', 'claude-haiku', 8_192, false, {
    input: 0.8,
    output: 4,
    cacheRead: 0.08,
    cacheWrite: 1,
  }),
];

/** Records of a generated catalogue's lines (the inverse of format.mjs's catalogueLine). */
export function parseCatalogueLines(text) {
  const records = [];
  for (const line of text.split('\n')) {
    const fields = line.split('|');
    if (fields.length < 6 || !['gemini', 'openai', 'anthropic'].includes(fields[0]) || !fields[1]) continue;
    const flags = fields[5];
    const record = {
      provider: fields[0],
      id: fields[1],
      family: fields[2],
      contextWindow: Number(fields[3]) || 0,
      maxOutputTokens: Number(fields[4]) || 0,
      reasoning: flags.includes('r'),
      images: flags.includes('i'),
      tools: flags.includes('t'),
      responsesApi: flags.includes('R'),
    };
    const price = priceAt(fields, 6);
    if (price) record.price = price;
    const longPrice = priceAt(fields, 11);
    if (Number(fields[10]) > 0 && longPrice)
      record.longContext = { above: Number(fields[10]), price: longPrice };
    records.push(record);
  }
  return records;
}

function priceAt(fields, at) {
  if (!fields[at] || !fields[at + 1]) return undefined;
  const price = { input: Number(fields[at]), output: Number(fields[at + 1]) };
  if (fields[at + 2]) price.cacheRead = Number(fields[at + 2]);
  if (fields[at + 3]) price.cacheWrite = Number(fields[at + 3]);
  return price;
}

/**
 * The fresh records, then every previous or retired record whose id they lack. Returns the
 * merged records and the ids kept that way (refresh.mjs reports them).
 */
export function withRetained(fresh, previous, retired = RETIRED) {
  const listed = new Set(fresh.map((record) => `${record.provider}:${record.id}`));
  const kept = [];
  const merged = [...fresh];
  for (const record of [...previous, ...retired]) {
    const key = `${record.provider}:${record.id}`;
    if (listed.has(key)) continue;
    listed.add(key);
    merged.push(record);
    kept.push(record.id);
  }
  return { records: merged, kept };
}
