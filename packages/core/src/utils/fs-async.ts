import { loadBuiltin } from './builtin';
/**
 * `node:fs/promises`, loaded on first use (see builtin.ts). The modules on the way to the first
 * request that use it only write later (spilled tool output, masked history, recorded responses):
 * they take it from here instead of importing it at the top.
 */
export function fsPromises(): Promise<typeof import('node:fs/promises')> {
  return Promise.resolve(loadBuiltin('node:fs/promises'));
}
