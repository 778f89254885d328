/**
 * Over ACP a line means what it means in the terminal and headless (core's input pipeline):
 * custom commands expand, `@agent` routes to the subagent, MCP prompts become the server's
 * prompt, and `available_commands_update` lists all of them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import {
  type GeminiMock,
  geminiFunctionCallReply,
  geminiTextReply,
  startGeminiMock,
  tinyServerEntry,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { startAcpKodo } from './acp-harness';
import { e2eDirs, type GeminiRequestBody, geminiMockEnv, writeFileIn } from './helpers';

const dirs = e2eDirs();
let mock: GeminiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const lastUserText = (index: number) =>
  (mock!.requests[index]!.body as GeminiRequestBody).contents
    .at(-1)!
    .parts.map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('\n');

function workspaceSettings(value: unknown): void {
  mkdirSync(join(dirs.workspace, '.kodo'), { recursive: true });
  writeFileSync(join(dirs.workspace, '.kodo', 'settings.json'), JSON.stringify(value));
}

async function withSession<T>(run: (kodo: ReturnType<typeof startAcpKodo>, sessionId: string) => Promise<T>) {
  const kodo = startAcpKodo({ cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock?.url) });
  try {
    await kodo.initialize();
    const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
    return await run(kodo, sessionId);
  } finally {
    expect(await kodo.close()).toBe(0);
  }
}

const prompt = (kodo: ReturnType<typeof startAcpKodo>, sessionId: string, text: string) =>
  kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });

describe('the input pipeline over ACP', () => {
  it('expands a custom command (TOML, {{args}}) and runs it as the prompt', async () => {
    writeFileIn(
      join(dirs.workspace, '.gemini', 'commands', 'audit.toml'),
      'description = "Review a file"\nprompt = "Review {{args}} carefully."\n',
    );
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Reviewed.') }] });
    await withSession(async (kodo, sessionId) => {
      const answer = await prompt(kodo, sessionId, '/audit src/app.ts');
      expect(answer.stopReason).toBe('end_turn');
      expect(mock!.requests).toHaveLength(1);
      expect(lastUserText(0)).toContain('Review src/app.ts carefully.');
      expect(lastUserText(0)).not.toContain('/audit');
    });
  });

  it('routes @agent to the subagent, as the terminal does', async () => {
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Delegating.') }] });
    await withSession(async (kodo, sessionId) => {
      await prompt(kodo, sessionId, '@codebase_investigator where is the parser?');
      expect(lastUserText(0)).toContain("<system_note>The user asked for the 'codebase_investigator' agent");
    });
  });

  it('turns /<mcp prompt> into the server’s prompt', async () => {
    workspaceSettings({ mcpServers: { tiny: tinyServerEntry() } });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Hello, Ada.') }] });
    await withSession(async (kodo, sessionId) => {
      const answer = await prompt(kodo, sessionId, '/greet Ada --tone=warm');
      expect(answer.stopReason).toBe('end_turn');
      expect(lastUserText(0)).toContain('Say hello to Ada in a warm tone.');
    });
  });

  it('advertises custom commands, skills and MCP prompts in available_commands_update', async () => {
    writeFileIn(
      join(dirs.workspace, '.gemini', 'commands', 'audit.toml'),
      'description = "Review a file"\nprompt = "Review {{args}}."\n',
    );
    writeFileIn(
      join(dirs.workspace, '.claude', 'skills', 'tidy', 'SKILL.md'),
      '---\nname: tidy\ndescription: Tidy the imports\n---\nSort the imports.\n',
    );
    workspaceSettings({ mcpServers: { tiny: tinyServerEntry() } });
    await withSession(async (kodo) => {
      const update = (await kodo.waitForUpdate(
        (candidate) => candidate.sessionUpdate === 'available_commands_update',
      )) as acp.AvailableCommandsUpdate;
      const byName = new Map(update.availableCommands.map((command) => [command.name, command]));
      expect(byName.get('audit')?.description).toBe('Review a file');
      expect(byName.get('greet')?.input).toEqual({ hint: expect.stringContaining('name') });
      expect(byName.get('tidy')?.description).toBe('Tidy the imports');
      expect(byName.has('compress')).toBe(true);
    });
  });

  it('sends available_commands_update again when an MCP server goes away (its prompts with it)', async () => {
    workspaceSettings({ mcpServers: { tiny: tinyServerEntry() } });
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_tiny_crash', {}) },
        { chunks: geminiTextReply('It went away.') },
      ],
    });
    await withSession(async (kodo, sessionId) => {
      const isCommands = (
        update: acp.SessionUpdate,
      ): update is acp.AvailableCommandsUpdate & acp.SessionUpdate =>
        update.sessionUpdate === 'available_commands_update';
      const names = (update: acp.SessionUpdate) =>
        (update as acp.AvailableCommandsUpdate).availableCommands.map((command) => command.name);
      expect(names(await kodo.waitForUpdate(isCommands))).toContain('greet');
      await prompt(kodo, sessionId, 'crash the server');
      const after = await kodo.waitForUpdate(
        (update) => isCommands(update) && !names(update).includes('greet'),
      );
      expect(names(after)).toContain('compress');
      // Sent when the list changed, not on every event of the server's going.
      expect(kodo.updates.filter(({ update }) => isCommands(update))).toHaveLength(2);
    });
  });
});
