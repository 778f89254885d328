/**
 * What the start-up pack (dist/hot-pack.cjs, see scripts/hot-pack.mjs) holds: the code every
 * headless run needs before its first request, and not the code only some runs need, which loads
 * on demand. A static import (or a value re-export from `@kodo/core/engine`, which every start-up
 * module imports) of such a module puts it back on every run's path; this catches that.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pack = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'hot-pack.cjs'),
  'utf8',
);

describe('the start-up pack', () => {
  it('holds the request path', () => {
    // The Gemini transport, the agent loop's history rule and the session log.
    for (const text of ['streamGenerateContent', 'Operation Cancelled', 'generateContentStream']) {
      expect(pack, text).toContain(text);
    }
  });

  it.each([
    ['the --fake-responses replay (llm/fake.ts)', 'with a known method'],
    ['checkpoints (safety/checkpoints/session-checkpoints.ts)', 'No checkpoint named'],
    ['the checkpoint store (safety/checkpoints/excludes.ts)', 'regenerated before every checkpoint'],
    ['local-server context discovery (llm/providers/context-discovery.ts)', '/api/ps'],
    ['the hook runner (hooks/protocol.ts)', 'hookSpecificOutput'],
    ["other tools' sessions (session/foreign/)", 'holds no conversation to continue'],
  ])('leaves out %s', (_name, text) => {
    expect(pack).not.toContain(text);
  });
});
