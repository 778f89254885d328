/**
 * Node's built-in modules that load on first use, by name. A dynamic import of `node:http` would link
 * the module through an ES module facade, which reads every export up front; on Node 22 and later
 * one of `node:http`'s exports is a lazy getter that loads undici (Node's `fetch`): importing
 * `node:http` that way takes 50–65 ms there, against 6–7 ms for the module itself
 * (docs/performance.md, session 13). `process.getBuiltinModule` (Node ≥ 20.16, below kodo's
 * floor) returns the module itself and reads nothing.
 */
interface LazyBuiltins {
  'node:child_process': typeof import('node:child_process');
  'node:dns': typeof import('node:dns');
  'node:fs/promises': typeof import('node:fs/promises');
  'node:http': typeof import('node:http');
  'node:https': typeof import('node:https');
  'node:timers/promises': typeof import('node:timers/promises');
  'node:zlib': typeof import('node:zlib');
}

export function loadBuiltin<Name extends keyof LazyBuiltins>(name: Name): LazyBuiltins[Name] {
  return process.getBuiltinModule(name) as LazyBuiltins[Name];
}
