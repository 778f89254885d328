import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'packages/*/test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // eventsource-parser maps the `source` condition to TypeScript files, which Node cannot load
    // from node_modules; inlined, Vite compiles them (the MCP SDK's HTTP clients import it).
    server: { deps: { inline: [/@modelcontextprotocol\/sdk/, /eventsource-parser/] } },
  },
});
