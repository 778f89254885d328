import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KODO_BIN } from '@kodo/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The official MCP client, over stdio, on `kodo mcp serve --tools builtin <flags>`. */
async function connect(flags: string[] = [], options: { elicitation?: boolean } = {}): Promise<Client> {
  const client = new Client(
    { name: 'kodo-e2e', version: '0' },
    { capabilities: options.elicitation ? { elicitation: {} } : {} },
  );
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [KODO_BIN, 'mcp', 'serve', '--tools', 'builtin', ...flags],
      // No model key at all: the built-in tools need none.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dirs.home,
        KODO_HOME: dirs.home,
        GEMINI_CLI_HOME: dirs.home,
        KODO_TRUST_WORKSPACE: 'true',
      },
      cwd: dirs.workspace,
      stderr: 'pipe',
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  return { isError: result.isError === true, text };
}

describe('kodo mcp serve --tools builtin', () => {
  it('lists the built-in tools beside kodo and kodo-reply, and an allowed read works', async () => {
    writeFileSync(join(dirs.workspace, 'notes.txt'), 'alpha\nbeta\n');
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'kodo',
      'kodo-reply',
      'read_file',
      'list_directory',
      'glob',
      'grep_search',
      'replace',
      'write_file',
      'run_shell_command',
    ]);
    const read = tools.find((tool) => tool.name === 'read_file')!;
    expect(read.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(read.inputSchema.properties ?? {})).not.toContain('wait_for_previous');
    const result = await call(client, 'read_file', { file_path: 'notes.txt' });
    expect(result).toEqual({ isError: false, text: 'alpha\nbeta' });
    const grep = await call(client, 'grep_search', { pattern: 'bet' });
    expect(grep.isError).toBe(false);
    expect(grep.text).toContain('notes.txt');
  });

  it('reads outside the workspace and writes or edits under the default policy are refused', async () => {
    const outside = join(dirs.root, 'outside.txt');
    writeFileSync(outside, 'keep\n');
    const client = await connect();
    const read = await call(client, 'read_file', { file_path: outside });
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/outside|workspace/i);
    const edit = await call(client, 'replace', {
      file_path: join(dirs.workspace, 'x.txt'),
      instruction: 'create it',
      old_string: '',
      new_string: 'new\n',
    });
    expect(edit.isError).toBe(true);
    expect(edit.text).toContain('needs approval');
    expect(edit.text).toContain('cannot ask anyone for approval');
    expect(existsSync(join(dirs.workspace, 'x.txt'))).toBe(false);
  });

  it('even in yolo mode an edit outside the workspace is refused, and one inside works', async () => {
    const outside = join(dirs.root, 'outside.txt');
    writeFileSync(outside, 'keep\n');
    writeFileSync(join(dirs.workspace, 'inside.txt'), 'old\n');
    const client = await connect(['--approval-mode', 'yolo']);
    const breakout = await call(client, 'replace', {
      file_path: outside,
      instruction: 'change it',
      old_string: 'keep',
      new_string: 'pwned',
    });
    expect(breakout.isError).toBe(true);
    expect(breakout.text).toMatch(/outside|workspace/i);
    expect(readFileSync(outside, 'utf8')).toBe('keep\n');
    const traversal = await call(client, 'write_file', { file_path: '../outside.txt', content: 'pwned\n' });
    expect(traversal.isError).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('keep\n');
    const edit = await call(client, 'replace', {
      file_path: join(dirs.workspace, 'inside.txt'),
      instruction: 'change it',
      old_string: 'old',
      new_string: 'new',
    });
    expect(edit.isError).toBe(false);
    expect(readFileSync(join(dirs.workspace, 'inside.txt'), 'utf8')).toBe('new\n');
  });

  it('the shell is refused under the default policy and runs under a policy file that allows it', async () => {
    const made = join(dirs.workspace, 'made.txt');
    const plain = await connect();
    const refused = await call(plain, 'run_shell_command', { command: 'echo hi > made.txt' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('cannot ask anyone for approval');
    expect(existsSync(made)).toBe(false);
    await plain.close();

    const policy = join(dirs.home, 'echo.toml');
    writeFileSync(
      policy,
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "echo"\ndecision = "allow"\npriority = 100\n',
    );
    const allowed = await connect(['--policy', policy]);
    const ran = await call(allowed, 'run_shell_command', { command: 'echo from-the-shell' });
    expect(ran.isError).toBe(false);
    expect(ran.text).toContain('from-the-shell');
    // The same policy still denies what it does not allow.
    const other = await call(allowed, 'run_shell_command', { command: 'touch made.txt' });
    expect(other.isError).toBe(true);
    expect(existsSync(made)).toBe(false);
  });

  it('asks through elicitation when the client supports it; a decline refuses the call', async () => {
    const client = await connect([], { elicitation: true });
    const answers = ['decline', 'accept'];
    const questions: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(String(request.params.message));
      return { action: answers.shift() as 'accept' | 'decline', content: {} };
    });
    const declined = await call(client, 'write_file', { file_path: 'a.txt', content: 'a\n' });
    expect(declined.isError).toBe(true);
    expect(existsSync(join(dirs.workspace, 'a.txt'))).toBe(false);
    const accepted = await call(client, 'write_file', { file_path: 'a.txt', content: 'a\n' });
    expect(accepted.isError).toBe(false);
    expect(readFileSync(join(dirs.workspace, 'a.txt'), 'utf8')).toBe('a\n');
    expect(questions).toHaveLength(2);
    expect(questions[0]).toContain('a.txt');
  });

  it('rejects an unknown --tools value', async () => {
    const client = new Client({ name: 'kodo-e2e', version: '0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [KODO_BIN, 'mcp', 'serve', '--tools', 'everything'],
      env: { PATH: process.env.PATH ?? '', KODO_HOME: dirs.home },
      cwd: dirs.workspace,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await expect(client.connect(transport)).rejects.toThrow();
    expect(stderr).toContain('Unknown --tools value: everything (expected: builtin)');
  });
});
