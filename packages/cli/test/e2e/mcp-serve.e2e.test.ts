import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiChunk, geminiFunctionCallReply, KODO_BIN, runKodo, startGeminiMock } from '@kodo/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { e2eDirs, spawnedKodoEnv, writeFileIn } from './helpers';

const dirs = e2eDirs();

function serverEnv(mockUrl: string): Record<string, string> {
  return spawnedKodoEnv(dirs.home, {
    GEMINI_CLI_HOME: dirs.home,
    GEMINI_API_KEY: 'test-key',
    GOOGLE_GEMINI_BASE_URL: mockUrl,
    KODO_RETRY_BASE_MS: '5',
  });
}

async function connect(
  env: Record<string, string>,
  options: { elicitation?: boolean } = {},
): Promise<Client> {
  const client = new Client(
    { name: 'kodo-e2e', version: '0' },
    { capabilities: options.elicitation ? { elicitation: {} } : {} },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [KODO_BIN, 'mcp', 'serve'],
      env,
      cwd: dirs.workspace,
      stderr: 'pipe',
    }),
  );
  return client;
}

type Structured = { sessionId: string; content: string; outcome: string };

describe('kodo mcp serve', () => {
  it('runs a task with kodo and continues it with kodo-reply, with progress notifications', async () => {
    const mock = await startGeminiMock({
      script: [
        { chunks: [geminiChunk([{ text: 'Answer one.' }])] },
        { chunks: [geminiChunk([{ text: 'Answer two.' }])] },
      ],
    });
    const client = await connect(serverEnv(mock.url));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['kodo', 'kodo-reply']);
      const progress: string[] = [];
      const first = await client.callTool(
        { name: 'kodo', arguments: { prompt: 'first question', cwd: dirs.workspace } },
        undefined,
        { onprogress: (note) => progress.push(String(note.message)) },
      );
      const started = first.structuredContent as Structured;
      expect(started).toMatchObject({ content: 'Answer one.', outcome: 'completed' });
      expect(started.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(progress).toContain('Model turn finished');
      const second = await client.callTool({
        name: 'kodo-reply',
        arguments: { sessionId: started.sessionId, prompt: 'second question' },
      });
      expect((second.structuredContent as Structured).content).toBe('Answer two.');
      const body = mock.requests[1]!.body as { contents: { role: string; parts: { text?: string }[] }[] };
      expect(body.contents.at(-2)).toEqual({ role: 'model', parts: [{ text: 'Answer one.' }] });
      const unknown = await client.callTool({
        name: 'kodo-reply',
        arguments: { sessionId: 'nope', prompt: 'x' },
      });
      expect(unknown.isError).toBe(true);
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('refuses a call that needs approval when the client cannot be asked; asks through elicitation when it can', async () => {
    const script = () => [
      { chunks: geminiFunctionCallReply('write_file', { file_path: 'made.txt', content: 'x\n' }) },
      { chunks: [geminiChunk([{ text: 'Done.' }])] },
    ];
    const target = join(dirs.workspace, 'made.txt');
    const refused = await startGeminiMock({ script: script() });
    const plain = await connect(serverEnv(refused.url));
    try {
      const result = await plain.callTool({ name: 'kodo', arguments: { prompt: 'write it' } });
      expect((result.structuredContent as Structured).outcome).toBe('completed');
      expect(existsSync(target)).toBe(false);
    } finally {
      await plain.close();
      await refused.close();
    }
    const asked = await startGeminiMock({ script: script() });
    const eliciting = await connect(serverEnv(asked.url), { elicitation: true });
    const questions: string[] = [];
    eliciting.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(String(request.params.message));
      return { action: 'accept', content: {} };
    });
    try {
      await eliciting.callTool({ name: 'kodo', arguments: { prompt: 'write it' } });
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain('made.txt');
      expect(readFileSync(target, 'utf8')).toBe('x\n');
    } finally {
      await eliciting.close();
      await asked.close();
    }
  });

  it('kodo delegates to kodo: the parent calls mcp_kodo_kodo on a kodo mcp serve', async () => {
    const child = await startGeminiMock({
      script: [{ chunks: [geminiChunk([{ text: 'Child says 42.' }])] }],
    });
    const parent = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_kodo_kodo', { prompt: 'what is the answer?' }) },
        { chunks: [geminiChunk([{ text: 'The child answered.' }])] },
      ],
    });
    try {
      const childHome = join(dirs.root, 'child-home');
      mkdirSync(childHome);
      mkdirSync(join(dirs.workspace, '.kodo'));
      writeFileSync(
        join(dirs.workspace, '.kodo', 'settings.json'),
        JSON.stringify({
          mcpServers: {
            kodo: {
              command: process.execPath,
              args: [KODO_BIN, 'mcp', 'serve'],
              env: { ...serverEnv(child.url), KODO_HOME: childHome, GEMINI_CLI_HOME: childHome },
              trust: true,
              timeout: 30_000,
            },
          },
        }),
      );
      const run = await runKodo(['-p', 'delegate it', '-o', 'json'], {
        cwd: dirs.workspace,
        env: {
          KODO_HOME: dirs.home,
          GEMINI_CLI_HOME: dirs.home,
          GEMINI_API_KEY: 'k',
          GOOGLE_GEMINI_BASE_URL: parent.url,
        },
        timeoutMs: 40_000,
      });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout).response).toBe('The child answered.');
      // The parent's model read the child's answer as the tool's result.
      const body = parent.requests[1]!.body as {
        contents: { parts: { functionResponse?: { response: unknown } }[] }[];
      };
      expect(JSON.stringify(body.contents.at(-1)!.parts[0]!.functionResponse)).toContain('Child says 42.');
      expect(child.requests).toHaveLength(1);
    } finally {
      await child.close();
      await parent.close();
    }
  }, 60_000);
});

describe('kodo mcp serve: a task means what it means in every front end (core input pipeline)', () => {
  const userText = (body: unknown) =>
    JSON.stringify(
      (body as { contents: { role: string }[] }).contents.filter((content) => content.role === 'user'),
    );

  it('attaches @file, expands a custom command, and routes @agent', async () => {
    writeFileIn(join(dirs.workspace, 'notes.txt'), 'remember the changelog');
    writeFileIn(
      join(dirs.workspace, '.gemini', 'commands', 'audit.toml'),
      'description = "Review a file"\nprompt = "Review {{args}} carefully."\n',
    );
    const mock = await startGeminiMock({
      script: [
        { chunks: [geminiChunk([{ text: 'Read.' }])] },
        { chunks: [geminiChunk([{ text: 'Reviewed.' }])] },
        { chunks: [geminiChunk([{ text: 'Delegating.' }])] },
      ],
    });
    const client = await connect(serverEnv(mock.url));
    try {
      const first = await client.callTool({ name: 'kodo', arguments: { prompt: 'summarise @notes.txt' } });
      const { sessionId } = first.structuredContent as Structured;
      expect(userText(mock.requests[0]!.body)).toContain('remember the changelog');
      await client.callTool({ name: 'kodo-reply', arguments: { sessionId, prompt: '/audit src/app.ts' } });
      expect(userText(mock.requests[1]!.body)).toContain('Review src/app.ts carefully.');
      expect(userText(mock.requests[1]!.body)).not.toContain('/audit');
      await client.callTool({
        name: 'kodo-reply',
        arguments: { sessionId, prompt: '@codebase_investigator where is the parser?' },
      });
      expect(userText(mock.requests[2]!.body)).toContain(
        "The user asked for the 'codebase_investigator' agent",
      );
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('runs !command under the policy: refused when nobody can approve, its output the answer when allowed', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: [geminiChunk([{ text: 'never' }])] }] });
    const plain = await connect(serverEnv(mock.url));
    try {
      const refused = await plain.callTool({ name: 'kodo', arguments: { prompt: '!echo from-the-client' } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("Shell command 'echo from-the-client' was not run");
    } finally {
      await plain.close();
    }
    writeFileIn(
      join(dirs.home, 'settings.json'),
      JSON.stringify({ tools: { allowed: ['run_shell_command(echo)'] } }),
    );
    const allowed = await connect(serverEnv(mock.url));
    try {
      const ran = await allowed.callTool({ name: 'kodo', arguments: { prompt: '!echo from-the-client' } });
      expect(ran.isError).toBeFalsy();
      expect(ran.structuredContent).toMatchObject({ content: 'from-the-client', outcome: 'completed' });
      // The line was the client's command: no model request.
      expect(mock.requests).toHaveLength(0);
    } finally {
      await allowed.close();
      await mock.close();
    }
  });

  it('a built-in session command says where it runs; an unknown command is an error', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: [geminiChunk([{ text: 'never' }])] }] });
    const client = await connect(serverEnv(mock.url));
    try {
      const builtin = await client.callTool({ name: 'kodo', arguments: { prompt: '/compress' } });
      expect(builtin.isError).toBe(true);
      expect(JSON.stringify(builtin.content)).toContain('it does not run in kodo mcp serve');
      const unknown = await client.callTool({ name: 'kodo', arguments: { prompt: '/nosuchthing' } });
      expect(unknown.isError).toBe(true);
      expect(JSON.stringify(unknown.content)).toContain('Unknown command: /nosuchthing');
      expect(mock.requests).toHaveLength(0);
    } finally {
      await client.close();
      await mock.close();
    }
  });
});
