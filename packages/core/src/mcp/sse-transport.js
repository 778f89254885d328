// The SDK's SSE transport, reached through plain JavaScript on purpose. Its type declarations
// import `eventsource`, whose package maps the `source` export condition (which kodo's tsconfig
// selects for its own packages) to TypeScript sources that do not compile under kodo's compiler
// settings. tsc reads `sse-transport.d.ts` beside this file and never follows the import below;
// bundlers and Vitest do, as for any other module.
export function loadSseTransport() {
  return import('@modelcontextprotocol/sdk/client/sse.js').then((module) => module.SSEClientTransport);
}
