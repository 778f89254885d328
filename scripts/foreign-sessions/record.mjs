// Re-records the foreign session fixtures (packages/testkit/fixtures/foreign-sessions/) with the
// real Gemini CLI, Claude Code and Codex against the testkit's mock servers. Not part of `npm test`
// and never run in CI: it needs the three CLIs installed from npm outside the repository.
// Usage and what it scrubs: packages/testkit/fixtures/foreign-sessions/README.md.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importBundled, repoRoot } from '../bundle-ts.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { main } = await importBundled(join(here, 'record.ts'), 'record-foreign-sessions');
process.exitCode = await main(process.argv.slice(2), repoRoot);
