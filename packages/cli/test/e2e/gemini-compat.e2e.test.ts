import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GeminiMock,
  geminiFunctionCallsReply,
  geminiTextReply,
  runKodo,
  startGeminiMock,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

// Behaviours where replays of Gemini CLI's own recorded sessions must end the same way in kodo.
const dirs = e2eDirs();
let mock: GeminiMock | undefined;
beforeEach(() => mkdirSync(join(dirs.workspace, '.kodo')));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const settings = (value: unknown) =>
  writeFileSync(join(dirs.workspace, '.kodo', 'settings.json'), JSON.stringify(value, null, 2));
const kodo = (args: string[], env: Record<string, string | undefined> = {}) =>
  runKodo(args, {
    cwd: dirs.workspace,
    env: { ...geminiMockEnv(dirs.home, mock?.url), KODO_TRUST_WORKSPACE: 'true', ...env },
  });

interface Body {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
}

describe('security.auth.enforcedType', () => {
  const MESSAGE =
    'The configured auth type is vertex-ai, but the current auth type is gemini-api-key. Please re-authenticate with the correct type.';

  it('another auth type exits 41 with Gemini CLI’s message before any request', async () => {
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('never') }] });
    settings({ security: { auth: { enforcedType: 'vertex-ai' } } });
    const run = await kodo(['-p', 'hello']);
    expect(run.code).toBe(41);
    expect(run.stderr).toContain(MESSAGE);
    expect(run.stdout).toBe('');
    expect(mock.requests).toHaveLength(0);
  });

  it('in -o json the same error is the JSON error object, code 41', async () => {
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('never') }] });
    settings({ security: { auth: { enforcedType: 'vertex-ai' } } });
    const run = await kodo(['-p', 'hello', '-o', 'json']);
    expect(run.code).toBe(41);
    const error = JSON.parse(run.stderr.slice(run.stderr.indexOf('{'))) as { error: unknown };
    expect(error.error).toEqual({ type: 'Error', message: MESSAGE, code: 41 });
    expect(mock.requests).toHaveLength(0);
  });

  it('no key at all is "undefined", as Gemini CLI says it; the matching type runs', async () => {
    settings({ security: { auth: { enforcedType: 'gemini-api-key' } } });
    const missing = await kodo(['-p', 'hello'], { GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined });
    expect(missing.code).toBe(41);
    expect(missing.stderr).toContain(
      'The configured auth type is gemini-api-key, but the current auth type is undefined.',
    );
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('fine') }] });
    const ok = await kodo(['-p', 'hello']);
    expect(ok.stdout).toBe('fine\n');
    expect(ok.code).toBe(0);
  });
});

describe('tools.confirmationRequired', () => {
  it('headless -y: the listed tool is offered, its call fails, the other call of the turn runs', async () => {
    writeFileSync(join(dirs.workspace, 'a.txt'), 'alpha\n');
    settings({ tools: { confirmationRequired: ['read_file'] } });
    mock = await startGeminiMock({
      script: [
        {
          chunks: geminiFunctionCallsReply([
            { name: 'read_file', args: { file_path: 'a.txt' } },
            { name: 'list_directory', args: { dir_path: '.' } },
          ]),
        },
        { chunks: geminiTextReply('Done.') },
      ],
    });
    const run = await kodo(['-p', 'look around', '-y']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Done.\n');
    const first = mock.requests[0]!.body as Body;
    const offered = first.tools!.flatMap((tool) => tool.functionDeclarations ?? []).map((tool) => tool.name);
    expect(offered).toContain('read_file');
    const responses = (mock.requests[1]!.body as Body).contents
      .at(-1)!
      .parts.map((part) => part.functionResponse as { name: string; response: Record<string, string> });
    expect(responses.map((response) => response.name)).toEqual(['read_file', 'list_directory']);
    expect(responses[0]!.response).toEqual({
      error:
        'Tool execution for "ReadFile" requires user confirmation, which is not supported in non-interactive mode.',
    });
    expect(responses[1]!.response.output).toContain('a.txt');
  });
});

describe('BeforeModel llm_response', () => {
  it('with decision block, the hook’s answer replaces the model call', async () => {
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('from the model') }] });
    const output = {
      decision: 'block',
      reason: 'answered from the cache',
      hookSpecificOutput: { hookEventName: 'BeforeModel', llm_response: { text: 'from the hook' } },
    };
    writeFileSync(
      join(dirs.workspace, 'hook.mjs'),
      `process.stdout.write(${JSON.stringify(JSON.stringify(output))});\n`,
    );
    settings({
      hooks: { BeforeModel: [{ hooks: [{ type: 'command', command: 'node hook.mjs' }] }] },
    });
    const run = await kodo(['-p', 'hello', '-o', 'json']);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { response: string }).response).toBe('from the hook');
    expect(mock.requests).toHaveLength(0);
  });
});

describe('web_fetch on a Gemini model', () => {
  it('goes through the URL-context tool first (a generateContent call); no page is fetched by kodo', async () => {
    const url = 'https://docs.example.com/guide';
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallsReply([{ name: 'web_fetch', args: { prompt: `Summarise ${url}` } }]) },
        {
          response: {
            candidates: [
              {
                content: { role: 'model', parts: [{ text: 'The guide explains setup.' }] },
                finishReason: 'STOP',
                groundingMetadata: { groundingChunks: [{ web: { uri: url, title: 'Guide' } }] },
              },
            ],
          },
        },
        { chunks: geminiTextReply('Summarised.') },
      ],
    });
    const run = await kodo(['-p', 'summarise the guide', '-y']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Summarised.\n');
    const primary = mock.requests[1]!;
    expect(primary.action).toBe('generateContent');
    const body = primary.body as Body & { tools: unknown[] };
    expect(body.tools).toEqual([{ urlContext: {} }]);
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: `Summarise ${url}` }] }]);
    const response = (mock.requests[2]!.body as Body).contents.at(-1)!.parts[0]!.functionResponse as {
      response: { output: string };
    };
    expect(response.response.output).toBe(
      `<untrusted_context>\nThe guide explains setup.\n\nSources:\n[1] Guide (${url})\n</untrusted_context>`,
    );
  });
});

describe('a call to a tool that was not declared', () => {
  const offeredIn = (body: Body) =>
    body.tools!.flatMap((tool) => tool.functionDeclarations ?? []).map((tool) => tool.name);
  const answerTo = (body: Body) =>
    body.contents.at(-1)!.parts.map((part) => (part.functionResponse as { response: unknown }).response);

  it('headless default mode: the shell is not declared, and its call is "not found" to the model, as in Gemini CLI', async () => {
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallsReply([{ name: 'run_shell_command', args: { command: 'touch f' } }]) },
        { chunks: geminiTextReply('Done.') },
      ],
    });
    const run = await kodo(['-p', 'make f']);
    expect(run.code).toBe(0);
    const first = mock.requests[0]!.body as Body;
    expect(offeredIn(first)).not.toContain('run_shell_command');
    expect(answerTo(mock.requests[1]!.body as Body)).toEqual([
      {
        error: expect.stringMatching(
          /^Tool "run_shell_command" not found\. Did you mean one of: "[a-z_]+", "[a-z_]+", "[a-z_]+"\?$/,
        ),
      },
    ]);
    // The suggestions are tools the model was offered.
    const suggested = [
      ...JSON.stringify(answerTo(mock.requests[1]!.body as Body)).matchAll(/\\"([a-z_]+)\\"/g),
    ]
      .map((match) => match[1]!)
      .filter((name) => name !== 'run_shell_command');
    for (const name of suggested) expect(offeredIn(first)).toContain(name);
    // The person is told why and how to allow it.
    expect(run.stderr).toContain('Tool "run_shell_command" is not allowed in this mode');
  });

  it('a name no tool has: the same text, type tool_not_registered in stream-json', async () => {
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallsReply([{ name: 'read_fil', args: { file_path: 'a' } }]) },
        { chunks: geminiTextReply('Done.') },
      ],
    });
    const run = await kodo(['-p', 'read', '-o', 'stream-json']);
    expect(run.code).toBe(0);
    const [answer] = answerTo(mock.requests[1]!.body as Body) as { error: string }[];
    expect(answer!.error).toMatch(/^Tool "read_fil" not found\. Did you mean one of: "read_file", /);
    const result = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; error?: { type: string } })
      .find((event) => event.type === 'tool_result');
    expect(result?.error?.type).toBe('tool_not_registered');
  });
});
