/**
 * Context windows that are learnt at run time (a local server's `-c` or `num_ctx`, a profile's
 * `contextWindow`) rather than known from the model table (models.ts). The provider router is
 * the source; the session plans compression and picks the tool profile with it.
 */
export interface ContextWindowSource {
  /** The window for a model spec, once known; undefined when not (yet) known. */
  known(model: string): number | undefined;
  /**
   * Asks (once per model; later calls share the answer) and returns the window, or undefined
   * when the provider does not say. Resolves, never rejects; the signal only stops the waiting.
   */
  discover(model: string, signal: AbortSignal): Promise<number | undefined>;
}
