// The public SDK surface of @kodo/core (named exports only): the engine, plus the API for
// writing tools.
export * from './engine';
export { builtinTools } from './tools/builtin/index';
export { defineTool } from './tools/define-tool';
