// jsonc-parser's parser module on its own (utils/jsonc.ts): its package entry also evaluates the
// formatter, whose caches are ~190 KB of strings built on load. Typed as the package types it.
declare module 'jsonc-parser/lib/esm/impl/parser.js' {
  export const parse: typeof import('jsonc-parser').parse;
}
