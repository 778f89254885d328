/**
 * The built `kodo` with the sessions the real Gemini CLI, Claude Code and Codex recorded (the
 * testkit's fixtures/foreign-sessions) in its home: listed with kodo's own, resumed by id, index
 * and `latest` into a new kodo session whose history reaches the model, originals untouched.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AnthropicMock,
  anthropicTextReply,
  FOREIGN_SESSION_FACTS as facts,
  type GeminiMock,
  geminiTextReply,
  historyProblems,
  installForeignSessions,
  runKodo,
  startAnthropicMock,
  startGeminiMock,
  type WireContent,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs, spawnedKodoEnv } from './helpers';

const textOnly = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'text-only.jsonl');
type Json = Record<string, unknown>;

const dirs = e2eDirs();
let installed: ReturnType<typeof installForeignSessions>;
let gemini: GeminiMock | undefined;
let anthropic: AnthropicMock | undefined;
beforeEach(() => {
  installed = installForeignSessions(dirs.home, dirs.workspace);
});
afterEach(async () => {
  await gemini?.close();
  await anthropic?.close();
  gemini = undefined;
  anthropic = undefined;
});

/** kodo with its home and the tools' homes in the test's home (`HOME`, and kodo's own there). */
const kodo = (args: string[], extra: Record<string, string> = {}) =>
  runKodo(args, {
    cwd: dirs.workspace,
    env: { ...spawnedKodoEnv(join(dirs.home, '.kodo'), extra), HOME: dirs.home },
  });

const geminiEnv = () => ({
  GEMINI_API_KEY: 'test-key',
  GOOGLE_GEMINI_BASE_URL: gemini!.url,
  KODO_RETRY_BASE_MS: '1',
});

function originals() {
  return Object.values(installed).map((file) => ({
    file,
    bytes: readFileSync(file!),
    mtimeMs: statSync(file!).mtimeMs,
  }));
}

function kodoSessionFiles(): string[] {
  const base = join(dirs.home, '.kodo', 'sessions');
  return readdirSync(base).flatMap((project) =>
    readdirSync(join(base, project))
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => join(base, project, name)),
  );
}

/** The text of every part of a Gemini request's contents, calls and responses as JSON. */
const flat = (contents: WireContent[]) => JSON.stringify(contents);

describe("other tools' sessions", () => {
  it("are listed for the project with kodo's own, marked by origin and sorted by time", async () => {
    const own = await kodo(['-p', 'hello', '--fake-responses', textOnly]);
    expect(own.code).toBe(0);
    const list = await kodo(['--list-sessions']);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toBe('Available sessions for this project (4):');
    expect(lines[1]).toMatch(
      new RegExp(`^ {2}1\\. \\[gemini\\] ${facts.prompt} \\(.*\\) \\[${facts.ids.gemini}\\]$`),
    );
    expect(lines[2]).toContain(`2. [claude] ${facts.prompt}`);
    expect(lines[3]).toContain(`3. [codex] ${facts.prompt}`);
    expect(lines[4]).toMatch(/^ {2}4\. hello \(/);
  });

  it('resumes a Gemini CLI session by id: its history is in the request, in a new kodo session', async () => {
    const before = originals();
    gemini = await startGeminiMock({ script: [{ chunks: geminiTextReply('Continuing.') }] });
    const run = await kodo(['--resume', facts.ids.gemini, '-p', 'continue', '-o', 'json'], geminiEnv());
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout) as { session_id: string; response: string };
    expect(output.response).toBe('Continuing.');
    expect(output.session_id).not.toBe(facts.ids.gemini);
    expect(run.stderr).toContain(
      `[INFO] Imported the Gemini CLI session ${facts.ids.gemini} as kodo session ${output.session_id} (the original file is unchanged).`,
    );

    const contents = (gemini.requests[0]!.body as { contents: WireContent[] }).contents;
    expect(historyProblems(contents)).toEqual([]);
    expect(contents[0]?.parts).toEqual([{ text: facts.prompt }]);
    expect(contents[1]?.parts).toContainEqual({ text: facts.thinking, thought: true });
    expect(contents[1]?.parts?.at(-1)).toMatchObject({
      functionCall: { name: 'read_file', args: { file_path: 'notes.txt' } },
    });
    expect(contents[2]?.parts?.[0]).toMatchObject({
      functionResponse: { name: 'read_file', response: { output: `${facts.note}\n` } },
    });
    expect(contents[3]?.parts).toContainEqual({ text: facts.answer });
    expect(flat(contents.slice(4))).toContain('continue');
    // The <session_context> preamble Gemini CLI recorded is not sent again.
    expect(flat(contents)).not.toContain('session_context');

    // A normal kodo session now, which `latest` resumes (no second import).
    const files = kodoSessionFiles();
    expect(files).toHaveLength(1);
    gemini.push({ chunks: geminiTextReply('Still here.') });
    const again = await kodo(['--resume', 'latest', '-p', 'and now?', '-o', 'json'], geminiEnv());
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).session_id).toBe(output.session_id);
    expect(again.stderr).not.toContain('Imported');
    expect(kodoSessionFiles()).toEqual(files);
    expect(flat((gemini.requests[1]!.body as { contents: WireContent[] }).contents)).toContain(facts.note);
    expect(originals()).toEqual(before);
  });

  it('resumes a Claude Code session by index with Anthropic: signed thinking, Read as read_file, results and answer', async () => {
    const before = originals();
    anthropic = await startAnthropicMock({
      apiKey: 'sk-ant',
      script: [{ chunks: anthropicTextReply('Continuing.') }],
    });
    const run = await kodo(['--resume', '2', '-p', 'continue'], {
      KODO_MODEL: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'sk-ant',
      ANTHROPIC_BASE_URL: anthropic.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Continuing.\n');
    expect(run.stderr).toContain(`[INFO] Imported the Claude Code session ${facts.ids.claude}`);
    const messages = (anthropic.requests[0]!.body as { messages: { role: string; content: Json[] }[] })
      .messages;
    expect(messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: facts.prompt }] });
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: facts.thinking, signature: 'c2lnbmF0dXJlLW9uZQ==' },
      {
        type: 'tool_use',
        id: 'toolu_01ReadNotes',
        name: 'read_file',
        input: { file_path: `${dirs.workspace}/notes.txt` },
      },
    ]);
    expect(messages[2]?.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_01ReadNotes',
      content: `1\t${facts.note}\n2\t`,
    });
    expect(messages[3]?.content).toEqual([
      { type: 'thinking', thinking: facts.afterThinking, signature: 'c2lnbmF0dXJlLXR3bw==' },
      { type: 'text', text: facts.answer },
    ]);
    expect(JSON.stringify(messages[4])).toContain('continue');
    expect(originals()).toEqual(before);
  });

  it('resumes the newest one with latest, here a Codex session, into a valid Gemini history', async () => {
    gemini = await startGeminiMock({ script: [{ chunks: geminiTextReply('Continuing.') }] });
    const run = await kodo(['--resume', '-p', 'continue'], geminiEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`[INFO] Imported the Codex session ${facts.ids.codex}`);
    const contents = (gemini.requests[0]!.body as { contents: WireContent[] }).contents;
    expect(historyProblems(contents)).toEqual([]);
    expect(contents[1]?.parts?.at(-1)).toMatchObject({
      functionCall: { name: 'run_shell_command', args: { command: 'cat notes.txt' } },
    });
    expect(flat(contents)).toContain(facts.answer);
    expect(flat(contents)).not.toContain('environment_context');
  });

  it("refuses to delete another tool's session and says why in the list when one is damaged", async () => {
    const del = await kodo(['--delete-session', '1']);
    expect(del.code).toBe(42);
    expect(del.stderr).toContain(
      "[ERROR] Session 1 was saved by Gemini CLI; kodo does not delete other tools' files",
    );
    expect(statSync(installed.gemini!).isFile()).toBe(true);

    const damaged = join(dirname(installed.claude!), '0badf11e-0000-4000-8000-000000000000.jsonl');
    writeFileSync(damaged, '{"type":"user","message":{"role":"us');
    const list = await kodo(['--list-sessions']);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe(
      `[WARNING] Skipped the Claude Code session ${damaged}: it holds no complete record (a damaged file?).\n`,
    );
    expect(list.stdout).toContain('(3):');
  });
});
