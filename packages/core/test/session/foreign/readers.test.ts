/**
 * Each reader on a session the real tool recorded (Gemini CLI 0.61.0, Claude Code 2.1.332,
 * Codex 0.171.0; see the testkit's fixtures/foreign-sessions/README.md): one prompt, one call
 * that reads a file, its result, the answer, and thinking before each model turn.
 */
import { FOREIGN_SESSION_FACTS as facts } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Content } from '../../../src/contracts/messages';
import { claudeSessions } from '../../../src/session/foreign/claude-sessions';
import { codexSessions } from '../../../src/session/foreign/codex-sessions';
import { geminiSessions } from '../../../src/session/foreign/gemini-sessions';
import type { ForeignSessionFormat } from '../../../src/session/foreign/types';
import { foreignHome } from './helpers';

let home: ReturnType<typeof foreignHome>;
beforeEach(() => {
  home = foreignHome();
});
afterEach(() => home.cleanup());

async function readOnly(format: ForeignSessionFormat) {
  const listing = format.list(home.project, home.env);
  expect(listing.skipped).toEqual([]);
  expect(listing.sessions).toHaveLength(1);
  const session = listing.sessions[0]!;
  expect(session).toMatchObject({ origin: format.origin, id: facts.ids[format.origin], title: facts.prompt });
  expect(session.file).toBe(home.files[format.origin]);
  return { session, conversation: await format.read(session.file) };
}

const textOf = (content: Content | undefined) =>
  content?.parts.filter((part) => part.text && !part.thought).map((part) => part.text);
const thoughtsOf = (content: Content | undefined) =>
  content?.parts.filter((part) => part.thought).map((part) => part.text);

describe('Gemini CLI sessions', () => {
  it('lists the session of the project from projects.json and reads prompt, thoughts, call, result and answer', async () => {
    const { session, conversation } = await readOnly(geminiSessions);
    expect(session.startTime).toBe('2026-12-02T08:42:47.192Z');
    const [prompt, call, result, answer] = conversation.history;
    expect(conversation.history).toHaveLength(4);
    // The <session_context> preamble Gemini CLI recorded first is its own, not a prompt.
    expect(prompt).toEqual({ role: 'user', parts: [{ text: facts.prompt }] });
    expect(thoughtsOf(call)).toEqual([facts.thinking]);
    expect(call?.parts.at(-1)?.functionCall).toMatchObject({
      name: 'read_file',
      args: { file_path: 'notes.txt' },
    });
    expect(result?.parts).toEqual([
      {
        functionResponse: {
          id: call?.parts.at(-1)?.functionCall?.id,
          name: 'read_file',
          response: { output: `${facts.note}\n` },
        },
      },
    ]);
    expect(thoughtsOf(answer)).toEqual([facts.afterThinking]);
    expect(textOf(answer)).toEqual([facts.answer]);
    expect(conversation.model).toBe('gemini-2.5-flash');
    expect(conversation.warnings).toEqual([]);
  });
});

describe('Claude Code sessions', () => {
  it('lists the session in the project folder and reads the chain with signed thinking and the Read call as read_file', async () => {
    const { session, conversation } = await readOnly(claudeSessions);
    expect(session.startTime).toBe('2026-12-02T08:42:53.785Z');
    const [prompt, call, result, answer] = conversation.history;
    expect(conversation.history).toHaveLength(4);
    // Attachments (environment, skill listings, system reminders) are Claude Code's own.
    expect(prompt).toEqual({ role: 'user', parts: [{ text: facts.prompt }] });
    expect(call?.parts).toEqual([
      { text: facts.thinking, thought: true, thoughtSignature: 'anthropic:c2lnbmF0dXJlLW9uZQ==' },
      {
        functionCall: {
          id: 'toolu_01ReadNotes',
          name: 'read_file',
          args: { file_path: `${home.project}/notes.txt` },
        },
      },
    ]);
    // Claude Code's result text (with its line numbers) is kept as it was.
    expect(result?.parts).toEqual([
      {
        functionResponse: {
          id: 'toolu_01ReadNotes',
          name: 'read_file',
          response: { output: `1\t${facts.note}\n2\t` },
        },
      },
    ]);
    expect(answer?.parts).toEqual([
      { text: facts.afterThinking, thought: true, thoughtSignature: 'anthropic:c2lnbmF0dXJlLXR3bw==' },
      { text: facts.answer },
    ]);
    expect(conversation.model).toBe('claude-sonnet-4-5');
  });
});

describe('Codex sessions', () => {
  it('lists the rollout whose cwd is the project and reads reasoning summaries and exec_command as run_shell_command', async () => {
    const { session, conversation } = await readOnly(codexSessions);
    expect(session.startTime).toBe('2026-12-02T08:43:01.342Z');
    const [prompt, call, result, answer] = conversation.history;
    expect(conversation.history).toHaveLength(4);
    // The developer instructions and <environment_context> are Codex's own.
    expect(prompt).toEqual({ role: 'user', parts: [{ text: facts.prompt }] });
    expect(call?.parts).toEqual([
      // The summary stays as plain thought text; the encrypted reasoning is not kept.
      { text: facts.thinking, thought: true },
      {
        functionCall: {
          id: 'call_ReadNotes1',
          name: 'run_shell_command',
          args: { command: 'cat notes.txt' },
        },
      },
    ]);
    expect(JSON.stringify(conversation.history)).not.toContain('encrypted');
    const response = result?.parts[0]?.functionResponse;
    expect(response).toMatchObject({ id: 'call_ReadNotes1', name: 'run_shell_command' });
    expect(String(response?.response.output)).toContain(facts.note);
    expect(answer?.parts).toEqual([{ text: facts.afterThinking, thought: true }, { text: facts.answer }]);
    expect(conversation.model).toBe('gpt-5.5');
  });

  it("does not list another project's rollouts", () => {
    const other = foreignHome(['codex']);
    try {
      expect(codexSessions.list(other.project, home.env).sessions).toEqual([]);
      expect(codexSessions.list(home.project, other.env).sessions).toEqual([]);
    } finally {
      other.cleanup();
    }
  });
});

describe('tool homes', () => {
  it('follow GEMINI_CLI_HOME, CLAUDE_CONFIG_DIR and CODEX_HOME', () => {
    const moved = foreignHome();
    try {
      const env = {
        HOME: home.root,
        GEMINI_CLI_HOME: moved.home,
        CLAUDE_CONFIG_DIR: `${moved.home}/.claude`,
        CODEX_HOME: `${moved.home}/.codex`,
      };
      for (const format of [geminiSessions, claudeSessions, codexSessions]) {
        expect(format.list(moved.project, env).sessions).toHaveLength(1);
        expect(
          format.list(moved.project, { HOME: moved.root, GEMINI_CLI_HOME: moved.root }).sessions,
        ).toEqual([]);
      }
    } finally {
      moved.cleanup();
    }
  });
});
