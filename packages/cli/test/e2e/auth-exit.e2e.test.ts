/**
 * Bad credentials exit 41, in every output format, with one line saying so: each provider's own
 * way of refusing a key (Gemini: 400 API_KEY_INVALID, 401, 403 PERMISSION_DENIED; OpenAI: 401;
 * Anthropic: 401 authentication_error, 403 permission_error). An unrelated 400 is not an auth
 * failure (controls).
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AnthropicMock,
  type GeminiMock,
  type OpenAIMock,
  runKodo,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();
let servers: (GeminiMock | OpenAIMock | AnthropicMock)[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

const FORMATS = ['text', 'json', 'stream-json'] as const;

const kodo = (args: string[], env: Record<string, string>) =>
  runKodo(['-p', 'hi', ...args], {
    cwd: dirs.workspace,
    env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, KODO_RETRY_BASE_MS: '5', ...env },
  });

/** The run exited 41 in each format, saying in one line that the key was refused. */
async function expectAuthExit(run: (format: string) => ReturnType<typeof kodo>, said: RegExp) {
  for (const format of FORMATS) {
    const result = await run(format);
    expect(result.code, `${format}: ${result.stderr}`).toBe(41);
    const output = `${result.stderr}${result.stdout}`;
    expect(output).toMatch(said);
    expect(output).not.toMatch(/at .*\.(c?js|ts):\d+/);
    if (format === 'text') expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }
}

describe('bad credentials exit 41', () => {
  it("Gemini: 400 API_KEY_INVALID (real envelope with ErrorInfo) and the mock's plain message", async () => {
    const details = [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
      },
    ];
    const mock = await startGeminiMock({
      script: FORMATS.map(() => ({
        fault: 'status' as const,
        status: 400,
        message: 'API key expired. Please renew the API key.',
        googleStatus: 'INVALID_ARGUMENT',
        details,
      })),
    });
    servers.push(mock);
    const env = { GEMINI_API_KEY: 'wrong', GOOGLE_GEMINI_BASE_URL: mock.url };
    await expectAuthExit((format) => kodo(['-o', format], env), /API key expired/);

    const keyed = await startGeminiMock({ apiKey: 'right' });
    servers.push(keyed);
    await expectAuthExit(
      (format) => kodo(['-o', format], { GEMINI_API_KEY: 'wrong', GOOGLE_GEMINI_BASE_URL: keyed.url }),
      /API key not valid/,
    );
  });

  it('Gemini: 401 and 403 PERMISSION_DENIED', async () => {
    for (const status of [401, 403]) {
      const mock = await startGeminiMock({
        script: FORMATS.map(() => ({
          fault: 'status' as const,
          status,
          message: 'The caller does not have permission',
        })),
      });
      servers.push(mock);
      await expectAuthExit(
        (format) => kodo(['-o', format], { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: mock.url }),
        /caller does not have permission/,
      );
    }
  });

  it('OpenAI: 401 invalid_api_key', async () => {
    const mock = await startOpenAIMock({ apiKey: 'sk-right' });
    servers.push(mock);
    await expectAuthExit(
      (format) =>
        kodo(['-o', format, '-m', 'openai:gpt-test'], {
          OPENAI_API_KEY: 'sk-wrong',
          OPENAI_BASE_URL: mock.url,
        }),
      /Incorrect API key provided/,
    );
  });

  it('Anthropic: 401 authentication_error and 403 permission_error', async () => {
    const claude = (url: string, key: string) => (format: string) =>
      kodo(['-o', format, '-m', 'anthropic:claude-test'], {
        ANTHROPIC_API_KEY: key,
        ANTHROPIC_BASE_URL: url,
      });
    const keyed = await startAnthropicMock({ apiKey: 'right' });
    servers.push(keyed);
    await expectAuthExit(claude(keyed.url, 'wrong'), /invalid x-api-key/);
    const denied = await startAnthropicMock({
      script: FORMATS.map(() => ({
        fault: 'status' as const,
        status: 403,
        message: 'Your key may not use this model',
      })),
    });
    servers.push(denied);
    await expectAuthExit(claude(denied.url, 'k'), /may not use this model/);
  });

  it('control: an unrelated 400 is not an auth failure', async () => {
    const mock = await startGeminiMock({
      script: [
        { fault: 'status', status: 400, message: 'Request contains an invalid argument.' },
        {
          fault: 'status',
          status: 400,
          message: 'User location is not supported for the API use.',
          googleStatus: 'FAILED_PRECONDITION',
        },
      ],
    });
    servers.push(mock);
    const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: mock.url };
    expect((await kodo([], env)).code).toBe(1);
    expect((await kodo(['-o', 'json'], env)).code).toBe(144);
  });
});

describe('Google sign-in and Vertex users with no key', () => {
  const geminiSettings = (text: string) => {
    mkdirSync(join(dirs.home, '.gemini'), { recursive: true });
    writeFileSync(join(dirs.home, '.gemini', 'settings.json'), text);
  };

  /** Exit 41 in each format, one line naming the method, that kodo does not support it, and the way on. */
  async function expectSignInExit(env: Record<string, string>, method: RegExp) {
    await expectAuthExit(
      (format) => kodo(['-o', format], env),
      /is not supported by kodo, which needs an API key: set GEMINI_API_KEY .*or use another provider/,
    );
    const text = await kodo([], env);
    expect(text.stderr).toMatch(method);
    expect(text.stderr).not.toContain('No API key found');
  }

  it("names Gemini CLI's selectedType (sign-in with Google, Cloud Shell, Vertex AI) from its settings", async () => {
    geminiSettings('{\n  // mine\n  "security": { "auth": { "selectedType": "oauth-personal" } }\n}\n');
    await expectSignInExit(
      {},
      /Gemini CLI's sign-in with Google \(security\.auth\.selectedType "oauth-personal" in \S+settings\.json\)/,
    );
    geminiSettings('{"security":{"auth":{"selectedType":"cloud-shell"}}}');
    await expectSignInExit({}, /Cloud Shell sign-in/);
    geminiSettings('{"security":{"auth":{"selectedType":"vertex-ai"}}}');
    await expectSignInExit({}, /Vertex AI/);
  });

  it('names the environment’s GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA and GOOGLE_CLOUD_PROJECT', async () => {
    await expectSignInExit(
      { GOOGLE_GENAI_USE_VERTEXAI: 'true' },
      /Vertex AI \(GOOGLE_GENAI_USE_VERTEXAI=true\)/,
    );
    await expectSignInExit(
      { GOOGLE_GENAI_USE_GCA: 'true' },
      /sign-in with Google \(GOOGLE_GENAI_USE_GCA=true\)/,
    );
    await expectSignInExit(
      { GOOGLE_CLOUD_PROJECT: 'my-proj' },
      /a Google Cloud project .*\(GOOGLE_CLOUD_PROJECT\)/,
    );
  });

  it('control: a key-based setup with no key still names the variable', async () => {
    geminiSettings('{"security":{"auth":{"selectedType":"gemini-api-key"}}}');
    const run = await kodo([], {});
    expect(run.code).toBe(41);
    expect(run.stderr).toContain('No API key found for provider "gemini". Set GEMINI_API_KEY');
  });
});
