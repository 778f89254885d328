import type { ModelCatalogue } from '../llm/model-info';
import { costOf } from '../llm/models';
import type { SessionStatsSnapshot } from './stats';

/**
 * What the requests in `snapshot` cost at list prices (US dollars), or undefined when a model
 * that used tokens has no known price. The counts are sums over requests, so the base price
 * applies (budgets.ts prices each response, long-context prices included; this covers resumed
 * turns too).
 */
export function statsCost(snapshot: SessionStatsSnapshot, catalogue: ModelCatalogue): number | undefined {
  const basePrices: ModelCatalogue = {
    info(model) {
      const info = catalogue.info(model);
      if (!info?.longContext) return info;
      const { longContext: _perRequest, ...rest } = info;
      return rest;
    },
  };
  let total = 0;
  for (const [model, stats] of Object.entries(snapshot.models)) {
    const { prompt, cached, candidates, thoughts, total: used } = stats.tokens;
    const cost = costOf(model, { prompt, cached, candidates, thoughts }, basePrices);
    if (cost === undefined) {
      if (used > 0) return undefined;
      continue;
    }
    total += cost;
  }
  return total;
}
