/**
 * The model catalogue as a session sees it: a spec resolves to its provider profile (registry.ts),
 * and that profile's `modelOverrides` for the model win over the built-in catalogue's entry.
 */
import type { ModelCatalogue } from '../model-info';
import { withOverride } from '../model-overrides';
import { modelInfo } from '../models';
import type { ProviderResolver } from './registry';

export function catalogueWithOverrides(resolver: Pick<ProviderResolver, 'resolve'>): ModelCatalogue {
  return {
    info(spec) {
      let resolved: ReturnType<ProviderResolver['resolve']>;
      try {
        resolved = resolver.resolve(spec);
      } catch {
        return modelInfo(spec);
      }
      const { connection, model } = resolved;
      return withOverride(modelInfo(model), connection.modelOverrides?.[model], {
        provider: connection.name,
        id: model,
      });
    },
    where(spec) {
      try {
        const { connection, model } = resolver.resolve(spec);
        return { provider: connection.name, id: model };
      } catch {
        return undefined;
      }
    },
  };
}
