import { join } from 'node:path';
import {
  type GeminiMock,
  type GeminiMockRequest,
  type GeminiMockStep,
  geminiFunctionCallReply,
  geminiFunctionCallsReply,
  geminiTextReply,
  runKodo,
  startGeminiMock,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs, type GeminiRequestBody, geminiMockEnv, writeFileIn } from './helpers';

// Custom agents from both families, run by the built `kodo` against the mock Gemini server: each
// child is its own loop with its own system prompt, tools and history (read back from the
// mock's request log), two run at once, and one that hits its turn limit is a tool error the
// parent model reads and gets past.
const dirs = e2eDirs();
let mock: GeminiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const kodo = (args: string[]) =>
  runKodo(args, {
    cwd: dirs.workspace,
    env: { ...geminiMockEnv(dirs.home, mock?.url), HOME: dirs.home },
    timeoutMs: 30_000,
  });
const bodyOf = (request: GeminiMockRequest) => request.body as GeminiRequestBody;
const systemOf = (request: GeminiMockRequest) =>
  bodyOf(request)
    .systemInstruction?.parts.map((part) => part.text ?? '')
    .join('') ?? '';
const allText = (request: GeminiMockRequest) => JSON.stringify(bodyOf(request).contents);
const toolsOf = (request: GeminiMockRequest) =>
  bodyOf(request).tools?.[0]?.functionDeclarations.map((tool) => tool.name) ?? [];
const hasResponses = (request: GeminiMockRequest) => allText(request).includes('functionResponse');

/** A Gemini CLI agent file (strict snake_case schema) and a Claude Code one (comma tools, color). */
function writeAgents(options: { reviewerTurns: number }) {
  writeFileIn(
    join(dirs.workspace, '.gemini', 'agents', 'scout.md'),
    '---\nname: scout\ndescription: Finds the files a task touches\nkind: local\ntools:\n  - read_file\n  - list_directory\nmax_turns: 5\ntimeout_mins: 2\n---\nYou are SCOUT-PROMPT. List what you find.\n',
  );
  writeFileIn(
    join(dirs.workspace, '.claude', 'agents', 'reviewer.md'),
    `---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep\nmodel: inherit\nmaxTurns: ${options.reviewerTurns}\ncolor: blue\n---\nYou are REVIEWER-PROMPT. Review carefully.\n`,
  );
  writeFileIn(join(dirs.workspace, 'a.txt'), 'alpha\n');
  writeFileIn(
    join(dirs.home, 'settings.json'),
    JSON.stringify({ security: { folderTrust: { untrustedHeadless: 'restricted' } } }),
  );
}

/** Answers each request by whose it is (children run in parallel, so order is not fixed). */
function router(reply: {
  parent: (request: GeminiMockRequest) => GeminiMockStep;
  scout?: (request: GeminiMockRequest) => GeminiMockStep;
  reviewer?: (request: GeminiMockRequest) => GeminiMockStep;
}) {
  return (request: GeminiMockRequest): GeminiMockStep => {
    const system = systemOf(request);
    if (system.includes('SCOUT-PROMPT') && reply.scout) return reply.scout(request);
    if (system.includes('REVIEWER-PROMPT') && reply.reviewer) return reply.reviewer(request);
    return reply.parent(request);
  };
}

describe('custom agents from both families, in the built kodo', () => {
  it('runs a Gemini CLI and a Claude Code agent in parallel, each with its own prompt, tools and history', async () => {
    writeAgents({ reviewerTurns: 3 });
    const route = router({
      parent: (request) =>
        hasResponses(request)
          ? { chunks: geminiTextReply('Both agents reported.') }
          : {
              chunks: geminiFunctionCallsReply([
                {
                  name: 'invoke_agent',
                  args: { agent_name: 'scout', prompt: 'Find the files for the login bug.' },
                },
                { name: 'invoke_agent', args: { agent_name: 'reviewer', prompt: 'Review a.txt for bugs.' } },
              ]),
            },
      // Each child's first answer is held back: the other child's request must arrive meanwhile.
      scout: () => ({ chunks: geminiTextReply('scout: a.txt is involved'), initialDelayMs: 700 }),
      reviewer: () => ({ chunks: geminiTextReply('reviewer: no bugs in a.txt'), initialDelayMs: 700 }),
    });
    mock = await startGeminiMock({ script: Array.from({ length: 6 }, () => route) });
    expect((await kodo(['agents', 'acknowledge'])).code).toBe(0);
    const run = await kodo(['-p', 'PARENT-SECRET: fix the login bug']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Both agents reported.');

    const requests = mock.requests;
    const scout = requests.filter((request) => systemOf(request).includes('SCOUT-PROMPT'));
    const reviewer = requests.filter((request) => systemOf(request).includes('REVIEWER-PROMPT'));
    const parent = requests.filter((request) => !scout.includes(request) && !reviewer.includes(request));
    expect([scout.length, reviewer.length, parent.length]).toEqual([1, 1, 2]);
    // The parent offered both agents, by name and description.
    expect(systemOf(parent[0]!)).toContain('Finds the files a task touches');
    expect(systemOf(parent[0]!)).toContain('Reviews code for bugs');
    for (const [child, prompt] of [
      [scout[0]!, 'Find the files for the login bug.'],
      [reviewer[0]!, 'Review a.txt for bugs.'],
    ] as const) {
      // Its own history: only the task it was given, none of the parent's conversation.
      expect(bodyOf(child).contents).toEqual([{ role: 'user', parts: [{ text: prompt }] }]);
      expect(allText(child)).not.toContain('PARENT-SECRET');
      // Its own system prompt (the file's body), not the parent's.
      expect(systemOf(child)).not.toContain('Finds the files a task touches');
      expect(toolsOf(child)).not.toContain('invoke_agent');
    }
    expect(toolsOf(scout[0]!).sort()).toEqual(['list_directory', 'read_file']);
    // Claude Code's tool names, mapped to kodo's.
    expect(toolsOf(reviewer[0]!).sort()).toEqual(['grep_search', 'read_file']);
    // In parallel: each child's request arrived before the other one's answer started.
    expect(scout[0]!.receivedAt).toBeLessThan(reviewer[0]!.chunkSentAt[0]!);
    expect(reviewer[0]!.receivedAt).toBeLessThan(scout[0]!.chunkSentAt[0]!);
    const results = allText(parent[1]!);
    expect(results).toContain("Subagent 'scout' finished.");
    expect(results).toContain('scout: a.txt is involved');
    expect(results).toContain("Subagent 'reviewer' finished.");
    expect(results).toContain('reviewer: no bugs in a.txt');
  });

  it('a child that reaches its turn limit is a clear tool error, and the parent goes on', async () => {
    writeAgents({ reviewerTurns: 2 });
    const route = router({
      parent: (request) =>
        hasResponses(request)
          ? { chunks: geminiTextReply('The reviewer ran out of turns; I will review it myself.') }
          : {
              chunks: geminiFunctionCallReply('invoke_agent', {
                agent_name: 'reviewer',
                prompt: 'Review a.txt.',
              }),
            },
      // The reviewer never stops calling tools.
      reviewer: () => ({ chunks: geminiFunctionCallReply('read_file', { file_path: 'a.txt' }) }),
    });
    mock = await startGeminiMock({ script: Array.from({ length: 8 }, () => route) });
    expect((await kodo(['agents', 'acknowledge', 'reviewer'])).code).toBe(0);
    const run = await kodo(['-p', 'review a.txt', '-o', 'json']);
    expect(run.code).toBe(0);
    const reviewer = mock.requests.filter((request) => systemOf(request).includes('REVIEWER-PROMPT'));
    expect(reviewer).toHaveLength(2);
    // Its second request carries its own first turn (its history grows, the parent's does not).
    expect(allText(reviewer[1]!)).toContain('alpha');
    const parent = mock.requests.filter((request) => !reviewer.includes(request));
    expect(parent).toHaveLength(2);
    // The parent model reads the limit as the call's error, and its own loop goes on.
    const last = bodyOf(parent[1]!).contents.at(-1)!;
    expect(last.parts).toEqual([
      {
        functionResponse: {
          name: 'invoke_agent',
          response: { error: 'Agent reached max turns limit (2).' },
        },
      },
    ]);
    expect(JSON.parse(run.stdout).response).toBe('The reviewer ran out of turns; I will review it myself.');
  });
});
