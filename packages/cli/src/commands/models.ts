import {
  CATALOGUE_SOURCE,
  CATALOGUE_UPDATED,
  catalogueEntries,
  catalogueWithOverrides,
  type LoadedSettings,
  loadSettings,
  type ModelInfo,
  type ModelPrice,
  ProviderConfigError,
  ProviderResolver,
  SettingsError,
} from '@kodo/core/engine';
import { ExitCode } from '../shared/exit-codes';

/**
 * `kodo models [provider] [--json]`: what kodo knows about models — the catalogue (models.dev,
 * refreshed by release CI) with the settings' `providers.<name>.modelOverrides` applied, and the
 * models profiles list or describe — and which fields came from the settings.
 */

export interface ModelsCommandContext {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface ModelRow {
  provider: string;
  model: string;
  info: ModelInfo | undefined;
}

export async function runModelsCommand(context: ModelsCommandContext): Promise<number> {
  const json = context.args.includes('--json');
  const words = context.args.filter((arg) => !arg.startsWith('-'));
  const unknown = context.args.filter((arg) => arg.startsWith('-') && arg !== '--json');
  if (unknown.length > 0 || words.length > 1) {
    context.stderr.write(
      `Usage: kodo models [provider] [--json] (unexpected: ${[...unknown, ...words.slice(1)].join(' ')})\n`,
    );
    return ExitCode.input;
  }
  let rows: ModelRow[];
  try {
    const loaded: LoadedSettings = loadSettings({ cwd: context.cwd, env: context.env });
    rows = knownModels(loaded.merged.providers, context.env);
  } catch (error) {
    if (!(error instanceof SettingsError || error instanceof ProviderConfigError)) throw error;
    context.stderr.write(`[ERROR] ${error.message}\n`);
    return ExitCode.config;
  }
  const provider = words[0];
  if (provider) rows = rows.filter((row) => row.provider === provider);
  context.stdout.write(json ? `${JSON.stringify(asJson(rows), null, 2)}\n` : formatModels(rows));
  return ExitCode.ok;
}

/** The catalogue's models under their providers, then the models the profiles list or describe. */
export function knownModels(
  profiles: ConstructorParameters<typeof ProviderResolver>[0]['profiles'],
  env: NodeJS.ProcessEnv,
): ModelRow[] {
  const models = catalogueWithOverrides(new ProviderResolver({ profiles, env }));
  const rows: ModelRow[] = [];
  const seen = new Set<string>();
  const add = (provider: string, model: string) => {
    const spec = `${provider}:${model}`;
    if (seen.has(spec)) return;
    seen.add(spec);
    rows.push({ provider, model, info: models.info(spec) });
  };
  for (const entry of catalogueEntries()) add(entry.provider, entry.id);
  for (const [name, profile] of Object.entries(profiles ?? {})) {
    for (const model of profile.models ?? []) add(name, model);
    for (const model of Object.keys(profile.modelOverrides ?? {})) add(name, model);
  }
  return rows;
}

function asJson(rows: ModelRow[]) {
  return {
    catalogue: { source: CATALOGUE_SOURCE, updated: CATALOGUE_UPDATED },
    models: rows.map(({ provider, model, info }) => ({
      provider,
      model,
      ...(info?.family ? { family: info.family } : {}),
      contextWindow: info?.contextWindow ?? null,
      maxOutputTokens: info?.maxOutputTokens ?? null,
      price: info?.price ?? null,
      ...(info?.longContext ? { longContext: info.longContext } : {}),
      capabilities: info
        ? {
            reasoning: info.reasoning,
            images: info.images,
            tools: info.tools,
            responsesApi: info.responsesApi,
          }
        : null,
      overridden: info?.overridden ?? [],
    })),
  };
}

const COLUMNS = [
  'provider',
  'model',
  'window',
  'max out',
  '$ in',
  '$ out',
  '$ cache r',
  '$ cache w',
  'can',
  'from',
];

/** A plain table, one model a line; prices in US dollars per million tokens. */
export function formatModels(rows: ModelRow[]): string {
  const lines = rows.map(({ provider, model, info }) => [
    provider,
    model,
    tokens(info?.contextWindow),
    tokens(info?.maxOutputTokens),
    ...prices(info?.price),
    capabilities(info),
    info?.overridden ? `settings: ${info.overridden.join(', ')}` : info ? 'catalogue' : 'unknown',
  ]);
  const widths = COLUMNS.map((title, index) =>
    Math.max(title.length, ...lines.map((line) => line[index]!.length)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, index) =>
        index >= 2 && index <= 7 ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!),
      )
      .join('  ')
      .trimEnd();
  return [
    `Model catalogue: ${CATALOGUE_SOURCE}, ${CATALOGUE_UPDATED}. Prices: US$ per million tokens.`,
    'can: r reasoning, i images, t tools, R OpenAI Responses API. Overrides: providers.<name>.modelOverrides.',
    '',
    format(COLUMNS),
    ...lines.map(format),
    '',
  ].join('\n');
}

function tokens(count: number | undefined): string {
  if (count === undefined) return '-';
  if (count >= 1_000_000) return `${Number((count / 1_000_000).toFixed(2))}M`;
  return count >= 1000 ? `${Math.round(count / 1000)}k` : String(count);
}

function prices(price: ModelPrice | undefined): string[] {
  if (!price) return ['-', '-', '-', '-'];
  const dollars = (value: number | undefined) => (value === undefined ? '-' : String(value));
  return [dollars(price.input), dollars(price.output), dollars(price.cacheRead), dollars(price.cacheWrite)];
}

function capabilities(info: ModelInfo | undefined): string {
  if (!info) return '-';
  return `${info.reasoning ? 'r' : ''}${info.images ? 'i' : ''}${info.tools ? 't' : ''}${info.responsesApi ? 'R' : ''}`;
}
