/**
 * The settings' `providers.<name>.modelOverrides` over the catalogue: each field set there wins,
 * and a model the catalogue does not list (a local server's, a new release) becomes known by
 * them. The entry remembers which fields came from settings, so `kodo models` can say so.
 */
import type { ModelOverrideSettings } from '../config/settings-types';
import type { ModelInfo, ModelPrice } from './model-info';

const CAPABILITIES = ['reasoning', 'images', 'tools'] as const;
const LIMITS = ['contextWindow', 'maxOutputTokens'] as const;

/**
 * `base` (the catalogue's entry, if any) with `override` applied. A price override fills in the
 * fields it sets; without the catalogue's price it needs `input` and `output` to make a price.
 */
export function withOverride(
  base: ModelInfo | undefined,
  override: ModelOverrideSettings | undefined,
  model: { provider: string; id: string },
): ModelInfo | undefined {
  if (!override) return base;
  const info: ModelInfo = base
    ? { ...base }
    : {
        id: model.id,
        provider: model.provider,
        reasoning: false,
        images: false,
        tools: true,
        responsesApi: false,
      };
  const overridden: string[] = [];
  for (const key of LIMITS) {
    const value = override[key];
    if (value !== undefined) {
      info[key] = value;
      overridden.push(key);
    }
  }
  for (const key of CAPABILITIES) {
    const value = override[key];
    if (value !== undefined) {
      info[key] = value;
      overridden.push(key);
    }
  }
  if (override.price) {
    const price = mergedPrice(base?.price, override.price);
    if (price) {
      info.price = price;
      // A price of one's own replaces the catalogue's long-context price too.
      delete info.longContext;
      overridden.push('price');
    }
  }
  if (overridden.length === 0) return base;
  info.overridden = overridden;
  return info;
}

function mergedPrice(base: ModelPrice | undefined, own: NonNullable<ModelOverrideSettings['price']>) {
  const input = own.input ?? base?.input;
  const output = own.output ?? base?.output;
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = own.cacheRead ?? base?.cacheRead;
  const cacheWrite = own.cacheWrite ?? base?.cacheWrite;
  return {
    input,
    output,
    ...(cacheRead !== undefined ? { cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWrite } : {}),
  } satisfies ModelPrice;
}
