/**
 * The hook runner (processes, the protocol, model-request steps), loaded only when settings or
 * extensions configure a hook: a run without hooks reads their configuration and nothing more.
 */
export type HookSystemModule = typeof import('./hook-system');

export function loadHookSystem(): Promise<HookSystemModule> {
  return import('./hook-system');
}
