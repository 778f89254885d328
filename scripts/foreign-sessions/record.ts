/**
 * Records one small session with each of the real Gemini CLI, Claude Code and Codex against a
 * mock of its model API, and keeps the session file the tool wrote as a fixture. Each session is
 * one prompt, one tool call that reads a file, and an answer, with thinking where the API has it.
 * Run through record.mjs (see the fixtures' README); never part of the test run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { join, relative } from 'node:path';
import {
  anthropicTextReply,
  anthropicToolUseReply,
  type GeminiMockRequest,
  geminiChunk,
  type MockRequest,
  type ScriptedMock,
  startAnthropicMock,
  startGeminiMock,
  startScriptedMock,
  type WireObject,
} from '@kodo/testkit';

/** Recorded in one fixed place so that paths in the files need no rewriting. */
const ROOT = '/tmp/kodo-foreign';
const HOME = join(ROOT, 'home');
const PROJECT = join(ROOT, 'project');
const NOTE = 'The launch code is tangerine-42.\n';
const PROMPT = 'Read notes.txt and tell me the launch code.';
const ANSWER = 'The launch code in notes.txt is tangerine-42.';
const THINKING = 'The user wants the launch code; I should read notes.txt first.';
const AFTER_THINKING = 'The file says tangerine-42, so that is the answer.';

type Tool = 'gemini' | 'claude' | 'codex';

export async function main(argv: string[], repoRoot: string): Promise<number> {
  const commands = parseArgs(argv);
  if (commands.size === 0) {
    process.stderr.write(
      'usage: node scripts/foreign-sessions/record.mjs [--gemini <gemini.js>] [--claude <claude>] [--codex <codex>]\n',
    );
    return 2;
  }
  const fixtures = join(repoRoot, 'packages/testkit/fixtures/foreign-sessions');
  for (const [tool, command] of commands) {
    freshRoot();
    const recorded = await RECORDERS[tool](command);
    const target = join(fixtures, tool);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    for (const file of recorded) {
      const name = join(target, relative(HOME, file).replace(/^\.[^/]+\//, ''));
      mkdirSync(join(name, '..'), { recursive: true });
      writeFileSync(name, scrub(tool, readFileSync(file, 'utf8')));
      process.stdout.write(`${tool}: kept ${relative(repoRoot, name)}\n`);
    }
  }
  return 0;
}

function parseArgs(argv: string[]): Map<Tool, string> {
  const commands = new Map<Tool, string>();
  for (let index = 0; index < argv.length; index += 2) {
    const flag = argv[index]?.replace(/^--/, '');
    const value = argv[index + 1];
    if ((flag === 'gemini' || flag === 'claude' || flag === 'codex') && value) commands.set(flag, value);
    else throw new Error(`unknown argument ${argv[index]}`);
  }
  return commands;
}

function freshRoot(): void {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(HOME, { recursive: true });
  mkdirSync(PROJECT, { recursive: true });
  writeFileSync(join(PROJECT, 'notes.txt'), NOTE);
}

/**
 * Removes the tools' own prose (system prompts, tool and skill descriptions, instructions: not
 * ours to copy, and not part of a conversation) and this machine's kernel version. Lines that
 * need no change keep their bytes; a changed line is written as the tool writes JSON (compact).
 */
function scrub(tool: Tool, text: string): string {
  const lines = text.split('\n').map((line) => {
    if (line.trim() === '' || tool === 'gemini') return line;
    const value = JSON.parse(line) as Json;
    const cleaned = tool === 'claude' ? scrubClaude(value) : scrubCodex(value);
    return cleaned === value ? line : JSON.stringify(cleaned);
  });
  return lines.join('\n').replaceAll(release(), '0.0.0-scrubbed');
}

type Json = Record<string, unknown>;

const LONG = 200;
const placeholder = (owner: string, length: number) =>
  `[scrubbed: ${length} characters of ${owner}'s own text]`;

/** Every string longer than LONG replaced by a placeholder (a new object; the same one if none). */
function scrubLong(value: unknown, owner: string): unknown {
  if (typeof value === 'string') return value.length > LONG ? placeholder(owner, value.length) : value;
  if (Array.isArray(value)) {
    const items = value.map((item) => scrubLong(item, owner));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => [key, scrubLong(item, owner)] as const);
    const changed = entries.some(([key, item]) => item !== (value as Json)[key]);
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

function scrubClaude(line: Json): Json {
  const owner = 'Claude Code';
  if (line.type === 'api-request-shape')
    return { ...line, shape: placeholder(owner, JSON.stringify(line.shape).length) };
  if (line.type === 'api-request-blob') return scrubLong(line, owner) as Json;
  if (line.type !== 'attachment') return line;
  const attachment = line.attachment as Json;
  if (attachment?.type === 'prompt_snapshot') {
    return {
      ...line,
      attachment: {
        type: 'prompt_snapshot',
        scrubbed: placeholder(owner, JSON.stringify(attachment).length),
      },
    };
  }
  return scrubLong(line, owner) as Json;
}

function scrubCodex(line: Json): Json {
  const owner = 'Codex';
  const payload = line.payload as Json;
  if (line.type === 'session_meta') return { ...line, payload: scrubLong(payload, owner) };
  if (line.type === 'world_state' || line.type === 'turn_context') return scrubLong(line, owner) as Json;
  if (line.type === 'response_item' && payload?.type === 'message' && payload.role === 'developer') {
    return scrubLong(line, owner) as Json;
  }
  return line;
}

function run(command: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: PROJECT,
      env: { PATH: process.env.PATH, HOME, TERM: 'dumb', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out });
    });
  });
}

function filesUnder(dir: string, match: RegExp): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (match.test(path)) found.push(path);
    }
  };
  walk(dir);
  return found;
}

function report(
  tool: Tool,
  mock: ScriptedMock | { requests: unknown[] },
  result: { code: number; out: string },
) {
  process.stdout.write(`${tool}: exit ${result.code}, ${mock.requests.length} model request(s)\n`);
  if (result.code !== 0) process.stdout.write(result.out.slice(-4000));
}

const RECORDERS: Record<Tool, (command: string) => Promise<string[]>> = {
  gemini: recordGemini,
  claude: recordClaude,
  codex: recordCodex,
};

// ---------------------------------------------------------------------------------------------
// Gemini CLI: Gemini REST (`GOOGLE_GEMINI_BASE_URL`), an API key, headless `-p`.

function hasFunctionResponse(body: unknown): boolean {
  const contents = (body as { contents?: { parts?: { functionResponse?: unknown }[] }[] })?.contents ?? [];
  return contents.some((content) => content.parts?.some((part) => part.functionResponse));
}

async function recordGemini(command: string): Promise<string[]> {
  const answer = (request: GeminiMockRequest) => {
    const body = request.body as { tools?: unknown[] };
    if (request.action !== 'streamGenerateContent' || !body.tools) {
      // Utility calls (routing, next speaker, titles): a short JSON answer fits them all.
      return { response: geminiChunk([{ text: '{"next_speaker":"user","reasoning":"done"}' }]) };
    }
    const usageMetadata = { promptTokenCount: 120, candidatesTokenCount: 12, totalTokenCount: 132 };
    if (!hasFunctionResponse(request.body)) {
      return {
        chunks: [
          geminiChunk([{ text: THINKING, thought: true }], { last: false }),
          geminiChunk(
            [
              {
                functionCall: { name: 'read_file', args: { file_path: 'notes.txt' } },
                thoughtSignature: 'c2lnbmF0dXJlLW9uZQ==',
              },
            ],
            { usageMetadata },
          ),
        ],
      };
    }
    return {
      chunks: [
        geminiChunk([{ text: AFTER_THINKING, thought: true }], { last: false }),
        geminiChunk([{ text: ANSWER }], { usageMetadata }),
      ],
    };
  };
  const mock = await startGeminiMock({ script: Array.from({ length: 40 }, () => answer) });
  try {
    writeFileSync(
      join(mkdirp(join(HOME, '.gemini')), 'settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        telemetry: { enabled: false },
      }),
    );
    const result = await run(['node', command, '-m', 'gemini-2.5-flash', '-p', PROMPT, '--skip-trust'], {
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: mock.url,
      GEMINI_CLI_NO_RELAUNCH: 'true',
    });
    report('gemini', mock, result);
    for (const request of mock.requests) process.stdout.write(`  ${request.method} ${request.path}\n`);
    return [
      join(HOME, '.gemini/projects.json'),
      ...filesUnder(join(HOME, '.gemini/tmp'), /(\/\.project_root|chats\/.*\.jsonl?)$/),
    ];
  } finally {
    await mock.close();
  }
}

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Claude Code: Anthropic Messages (`ANTHROPIC_BASE_URL`), an API key, `-p`.

function hasToolResult(body: unknown): boolean {
  const messages = (body as { messages?: { content?: unknown }[] })?.messages ?? [];
  return messages.some(
    (message) =>
      Array.isArray(message.content) &&
      message.content.some((block: { type?: string }) => block?.type === 'tool_result'),
  );
}

async function recordClaude(command: string): Promise<string[]> {
  const answer = (request: MockRequest) => {
    const body = request.body as { tools?: { name?: string }[] };
    const model = request.model ?? 'claude-sonnet-4-5';
    if (!request.stream || !body.tools?.some((tool) => tool.name === 'Read')) {
      // Utility calls (titles, topic checks, quota probes): a short answer fits them all.
      return request.stream
        ? { chunks: anthropicTextReply('{"isNewTopic": false, "title": "Launch code"}', { model }) }
        : {
            response: {
              id: 'msg_utility',
              type: 'message',
              role: 'assistant',
              model,
              content: [{ type: 'text', text: '{"isNewTopic": false, "title": "Launch code"}' }],
              stop_reason: 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: 10, output_tokens: 5 },
            },
          };
    }
    if (!hasToolResult(request.body)) {
      return {
        chunks: anthropicToolUseReply(
          [{ id: 'toolu_01ReadNotes', name: 'Read', args: { file_path: join(PROJECT, 'notes.txt') } }],
          { model, thinking: { text: THINKING, signature: 'c2lnbmF0dXJlLW9uZQ==' } },
        ),
      };
    }
    return {
      chunks: anthropicTextReply(ANSWER, {
        model,
        thinking: { text: AFTER_THINKING, signature: 'c2lnbmF0dXJlLXR3bw==' },
      }),
    };
  };
  const mock = await startAnthropicMock({ script: Array.from({ length: 40 }, () => answer) });
  try {
    const result = await run(
      [command, '-p', PROMPT, '--allowedTools', 'Read', '--model', 'claude-sonnet-4-5'],
      {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: mock.url,
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    );
    report('claude', mock, result);
    for (const request of mock.requests)
      process.stdout.write(`  ${request.method} ${request.path} ${request.stream}\n`);
    return filesUnder(join(HOME, '.claude/projects'), /\.jsonl$/);
  } finally {
    await mock.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Codex: the OpenAI Responses API, which the testkit has no mock of; a minimal one below.

/** The Responses API's stream: one `event:`/`data:` pair per event. */
function startResponsesMock(script: ((request: MockRequest) => { chunks: WireObject[] })[]) {
  return startScriptedMock(
    {
      name: 'responses-mock',
      urlSuffix: '/v1',
      isEndpoint: (path) => path === '/v1/responses',
      checkHeaders: () => undefined,
      errorBody: (_fault, message) => JSON.stringify({ error: { message, type: 'server_error' } }),
      defaultMessages: {},
      frame: (event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`,
      malformedEvent: 'data: {"type":"response.output_text.delta","delta":"cu\n\n',
    },
    { script },
  );
}

/** A whole response as Codex reads it: each output item added and done, then `completed`. */
function responseEvents(id: string, items: WireObject[]): WireObject[] {
  const response = { id, object: 'response', status: 'in_progress', output: [] as WireObject[] };
  const events: WireObject[] = [{ type: 'response.created', response }];
  for (const [index, item] of items.entries()) {
    events.push({ type: 'response.output_item.added', output_index: index, item });
    if (item.type === 'message') {
      const text = (item.content as { text: string }[])[0]!.text;
      events.push({ type: 'response.output_text.delta', output_index: index, content_index: 0, delta: text });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  }
  events.push({
    type: 'response.completed',
    response: {
      ...response,
      status: 'completed',
      output: items,
      usage: {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 12,
        output_tokens_details: { reasoning_tokens: 8 },
        total_tokens: 132,
      },
    },
  });
  return events;
}

function reasoningItem(id: string, text: string): WireObject {
  return {
    type: 'reasoning',
    id,
    summary: [{ type: 'summary_text', text }],
    encrypted_content: `gAAAA-mock-encrypted-${id}`,
  };
}

function hasFunctionOutput(body: unknown): boolean {
  const input = (body as { input?: { type?: string }[] })?.input ?? [];
  return input.some((item) => item?.type === 'function_call_output');
}

async function recordCodex(command: string): Promise<string[]> {
  const answer = (request: MockRequest) => {
    if (!hasFunctionOutput(request.body)) {
      return {
        chunks: responseEvents('resp_1', [
          reasoningItem('rs_1', THINKING),
          {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_ReadNotes1',
            name: 'exec_command',
            arguments: JSON.stringify({ cmd: 'cat notes.txt' }),
            status: 'completed',
          },
        ]),
      };
    }
    return {
      chunks: responseEvents('resp_2', [
        reasoningItem('rs_2', AFTER_THINKING),
        {
          type: 'message',
          id: 'msg_2',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: ANSWER, annotations: [] }],
        },
      ]),
    };
  };
  const mock = await startResponsesMock(Array.from({ length: 40 }, () => answer));
  try {
    const codexHome = mkdirp(join(HOME, '.codex'));
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_provider = "mock"',
        '[model_providers.mock]',
        'name = "mock"',
        `base_url = "${mock.url}"`,
        'wire_api = "responses"',
        'env_key = "OPENAI_API_KEY"',
        '',
      ].join('\n'),
    );
    const result = await run(
      [command, 'exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', PROMPT],
      { OPENAI_API_KEY: 'test-key', CODEX_HOME: codexHome },
    );
    report('codex', mock, result);
    for (const request of mock.requests) process.stdout.write(`  ${request.method} ${request.path}\n`);
    for (const request of mock.otherRequests)
      process.stdout.write(`  (other) ${request.method} ${request.path}\n`);
    return filesUnder(join(codexHome, 'sessions'), /rollout-.*\.jsonl$/);
  } finally {
    await mock.close();
  }
}
