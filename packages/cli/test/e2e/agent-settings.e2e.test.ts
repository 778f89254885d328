/**
 * Settings `agents.maxTurns`, `agents.maxTimeMinutes` and `agents.maxDepth` reach the session:
 * each changes what the built kodo does with a subagent (before, they were read and dropped).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type GeminiMock,
  geminiFunctionCallReply,
  geminiTextReply,
  runKodo,
  startGeminiMock,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv, writeFileIn } from './helpers';

const subagentFixture = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'subagent.jsonl');
const dirs = e2eDirs();
let mock: GeminiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const settings = (agents: Record<string, unknown>) =>
  writeFileIn(join(dirs.home, 'settings.json'), JSON.stringify({ agents }));

function events(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The invoke_agent call's result (top level, not a nested event). */
function agentResult(stdout: string) {
  const all = events(stdout);
  const call = all.find((event) => event.type === 'tool_use' && event.tool_name === 'invoke_agent')!;
  return all.find((event) => event.type === 'tool_result' && event.tool_id === call.tool_id) as {
    status: string;
    output?: string;
    error?: { message: string };
  };
}

describe('agents.* settings', () => {
  it('agents.maxTurns caps every subagent (the investigator allows itself 50)', async () => {
    mkdirSync(join(dirs.workspace, 'src'));
    writeFileSync(join(dirs.workspace, 'src/greet.js'), 'export const greeting = "hi";\n');
    const run = (extra: Record<string, string> = {}) =>
      runKodo(['-p', 'where?', '-o', 'stream-json', '--fake-responses', subagentFixture], {
        cwd: dirs.workspace,
        env: { KODO_HOME: dirs.home, ...extra },
      });
    const free = await run();
    expect(agentResult(free.stdout).status).toBe('success');

    settings({ maxTurns: 1 });
    const capped = await run();
    expect(capped.code).toBe(0);
    const result = agentResult(capped.stdout);
    expect(result.status).toBe('error');
    expect(JSON.stringify(result)).toContain('Agent reached max turns limit (1).');
  });

  it('agents.maxTimeMinutes stops a subagent that runs longer, whatever its own timeout_mins says', async () => {
    writeFileIn(
      join(dirs.home, 'agents', 'sleeper.md'),
      '---\nname: sleeper\ndescription: Sleeps.\ntools: [run_shell_command]\ntimeout_mins: 10\n---\nYou sleep.\n',
    );
    const fixture = join(dirs.root, 'sleep.jsonl');
    const line = (parts: unknown[]) =>
      JSON.stringify({
        method: 'generateContentStream',
        response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }],
      });
    writeFileSync(
      fixture,
      [
        line([{ functionCall: { name: 'invoke_agent', args: { agent_name: 'sleeper', prompt: 'sleep' } } }]),
        line([{ functionCall: { name: 'run_shell_command', args: { command: 'sleep 20' } } }]),
        line([{ text: 'The helper ran out of time.' }]),
      ].join('\n'),
    );
    settings({ maxTimeMinutes: 0.02 });
    const started = Date.now();
    const run = await runKodo(['-p', 'go', '-y', '-o', 'stream-json', '--fake-responses', fixture], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, KODO_SANDBOX: 'false' },
    });
    expect(run.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    const result = agentResult(run.stdout);
    expect(result.status).toBe('error');
    expect(JSON.stringify(result)).toContain('Agent ran out of time before it finished.');
  }, 30_000);

  it('agents.maxDepth: 0 offers no invoke_agent; 2 lets a subagent delegate once more', async () => {
    const declared = (index: number) =>
      (
        (mock!.requests[index]!.body as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ??
        []
      ).flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name));

    settings({ maxDepth: 0 });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('No helpers.') }] });
    const none = await runKodo(['-p', 'hi'], {
      cwd: dirs.workspace,
      env: geminiMockEnv(dirs.home, mock.url),
    });
    expect(none.code).toBe(0);
    expect(declared(0)).toContain('read_file');
    expect(declared(0)).not.toContain('invoke_agent');
    await mock.close();

    settings({ maxDepth: 2 });
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('invoke_agent', { agent_name: 'generalist', prompt: 'do it' }) },
        { chunks: geminiTextReply('child done') },
        { chunks: geminiTextReply('parent done') },
      ],
    });
    const deeper = await runKodo(['-p', 'hi'], {
      cwd: dirs.workspace,
      env: geminiMockEnv(dirs.home, mock.url),
    });
    expect(deeper.code).toBe(0);
    // The child (generalist, the second request) may delegate too: it is offered invoke_agent.
    expect(declared(1)).toContain('invoke_agent');
  });
});
