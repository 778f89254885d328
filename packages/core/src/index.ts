// The public SDK surface of @kodo/core (named exports only): the engine, plus the API for
// writing tools.
export * from './engine';
export { loadSession } from './session/resume';
export { builtinTools } from './tools/builtin/index';
export { defineTool } from './tools/define-tool';
