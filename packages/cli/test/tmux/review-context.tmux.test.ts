import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GeminiMock,
  geminiFunctionCallReply,
  geminiTextReply,
  hasTmux,
  KODO_READY,
  KodoTmux,
  startGeminiMock,
  type TmuxSession,
  tinyServerEntry,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * Issue R, `/review` and `/context` in a real terminal (tmux) with the built kodo: the review
 * reads the working tree's diff, cannot edit (plan mode refuses the model's write), and shows
 * the findings; `/context` draws where the window goes, per source and per MCP server.
 */
let kodo: KodoTmux;
let mock: GeminiMock | undefined;
beforeEach(() => {
  kodo = new KodoTmux({ env: { KODO_SANDBOX: 'false' } });
});
afterEach(async () => {
  kodo.close();
  await mock?.close();
  mock = undefined;
});

interface Body {
  contents: { role: string; parts: { text?: string; functionResponse?: { response: unknown } }[] }[];
}

const env = () => ({ GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: mock!.url });

async function command(session: TmuxSession, line: string): Promise<void> {
  await session.waitFor(KODO_READY);
  session.type(line);
  await session.waitFor(line);
  // The first Enter may pick the completion menu's entry; the line is complete already.
  session.press('Enter');
}

function git(args: string[]): void {
  execFileSync('git', args, {
    cwd: kodo.workspace,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e',
    },
  });
}

describe.skipIf(!hasTmux())('/review and /context in the terminal', () => {
  it('/review sends the working tree’s diff, refuses the model’s edit, and shows the findings', async () => {
    git(['init', '-q']);
    writeFileSync(join(kodo.workspace, 'calc.js'), 'export const add = (a, b) => a + b;\n');
    git(['add', '.']);
    git(['commit', '-qm', 'init']);
    writeFileSync(join(kodo.workspace, 'calc.js'), 'export const add = (a, b) => a - b;\n');
    writeFileSync(join(kodo.workspace, 'notes.txt'), 'new file\n');
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('write_file', { file_path: 'calc.js', content: 'fixed\n' }) },
        { chunks: geminiTextReply('calc.js:1 — high — add subtracts; use a + b.') },
      ],
    });
    const session = await kodo.startReady([], { env: env() });
    await command(session, '/review');
    await session.waitFor('calc.js:1 — high — add subtracts', 20_000);
    const prompt = (mock.requests[0]!.body as Body).contents
      .at(-1)!
      .parts.map((part) => part.text)
      .join('');
    expect(prompt).toContain('Review the changes in the working tree');
    expect(prompt).toContain('-export const add = (a, b) => a + b;');
    expect(prompt).toContain('+export const add = (a, b) => a - b;');
    expect(prompt).toContain('- notes.txt');
    // The review is read-only: the model's write was refused by the policy, the file is as it was.
    const answer = JSON.stringify((mock.requests[1]!.body as Body).contents.at(-1));
    expect(answer).toContain('Plan Mode');
    expect(readFileSync(join(kodo.workspace, 'calc.js'), 'utf8')).toBe(
      'export const add = (a, b) => a - b;\n',
    );
    // The mode the person had is back once the review ends.
    const footer = session.capture();
    expect(footer).toMatch(/· default ·/);
    expect(footer).not.toMatch(/· plan ·/);
  });

  it('/context draws each source with its tokens and share of the window, MCP servers by name', async () => {
    mkdirSync(join(kodo.workspace, '.kodo'), { recursive: true });
    writeFileSync(
      join(kodo.workspace, '.kodo', 'settings.json'),
      JSON.stringify({ mcpServers: { tiny: { ...tinyServerEntry(), trust: true } } }),
    );
    writeFileSync(
      join(kodo.workspace, 'AGENTS.md'),
      `# Project rules\n${'Keep functions small. '.repeat(40)}\n`,
    );
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Hello there.') }] });
    const session = await kodo.startReady([], { env: env() });
    await command(session, 'hi');
    await session.waitFor('Hello there.');
    await command(session, '/context');
    const screen = await session.waitFor('Share of window');
    expect(screen).toMatch(/gemini-2\.5-pro.*of [\d.]+[kKmM]? tokens/);
    for (const row of [
      'system prompt',
      'tools (built-in)',
      'MCP server tiny',
      'context files',
      'skills',
      'history',
      'tool outputs',
      'free',
    ]) {
      expect(screen, row).toMatch(
        new RegExp(`${row.replace(/[()]/g, '\\$&')}\\s*│?\\s*[\\d.]+[kKmM]?\\s*│?\\s*[\\d.]+%`),
      );
    }
  });
});

describe.skipIf(!hasTmux())('auto-memory at the end of an interactive session', () => {
  it('is on by default: the facts the model proposes wait in the inbox, and /memory shows them next time', async () => {
    mock = await startGeminiMock({
      script: [
        { chunks: geminiTextReply('Noted, pnpm it is.') },
        { chunks: geminiTextReply('Tests pass.') },
        {
          response: {
            candidates: [{ content: { role: 'model', parts: [{ text: '["The project uses pnpm."]' }] } }],
          },
        },
      ],
    });
    // KodoTmux turns auto-memory off for other tests; '' is the default.
    const session = await kodo.startReady([], { env: { ...env(), KODO_AUTO_MEMORY: '' } });
    await command(session, 'we use pnpm here');
    await session.waitFor('Noted, pnpm it is.');
    await command(session, 'run the tests');
    await session.waitFor('Tests pass.');
    await command(session, '/quit');
    const end = await session.waitFor('[exited 0]', 20_000);
    expect(end).toContain('1 proposed memory waits in the inbox: /memory inbox');
    expect(JSON.stringify(mock.requests[2]!.body)).toContain('durable facts worth remembering');
    const next = await kodo.startReady([], { env: env() });
    await command(next, '/memory');
    await next.waitFor('Proposed memories (1)');
    await next.waitFor('1. The project uses pnpm.');
  });
});
