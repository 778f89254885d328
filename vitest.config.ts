import { readFile } from 'node:fs/promises';
import { defineConfig, type Plugin } from 'vitest/config';

/** Dependencies Vite compiles (server.deps.inline) whose source maps name sources they do not ship. */
const INLINED_WITHOUT_SOURCES =
  /[\\/]node_modules[\\/](@modelcontextprotocol[\\/]sdk|eventsource-parser)[\\/]/;

/**
 * Loads those files without their `sourceMappingURL` comment: Vite would otherwise follow it and
 * print "Sourcemap for … points to missing source files" once per file. Their stack frames keep
 * the files' own lines.
 */
function withoutBrokenSourceMaps(): Plugin {
  return {
    name: 'kodo:without-broken-source-maps',
    enforce: 'pre',
    async load(id) {
      const file = id.split('?')[0]!;
      if (!INLINED_WITHOUT_SOURCES.test(file) || !/\.[cm]?js$/.test(file)) return null;
      const code = await readFile(file, 'utf8');
      return { code: code.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'), map: null };
    },
  };
}

export default defineConfig({
  plugins: [withoutBrokenSourceMaps()],
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
