/** The extensibility module, loaded only when there is something to discover or manage. */
export type ExtensionsModule = typeof import('./index');

export function loadExtensionsModule(): Promise<ExtensionsModule> {
  return import('./index');
}

/** The part a run needs when a discovery snapshot holds (small: no discovery or parsing). */
export type ExtensionsStartupModule = typeof import('./startup');

export function loadExtensionsStartupModule(): Promise<ExtensionsStartupModule> {
  return import('./startup');
}
