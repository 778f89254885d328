/**
 * `security.disableYoloMode` and `admin.secureModeEnabled` hold on every route to yolo, not only
 * the UI's toggle: the flags (`-y`, `--approval-mode yolo`), a project's settings that try to turn
 * the lock-down off, ACP's `session/set_mode` and `session/set_config_option`, and `kodo mcp
 * serve` (the `kodo` task tool's `approval-mode`, and `--tools builtin` started in yolo). Each
 * attack asks for yolo and then makes a call only yolo would run unasked; it must never run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { KODO_BIN, runKodo } from '@kodo/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { startAcpKodo } from './acp-harness';
import { e2eDirs, spawnedKodoEnv, writeFileIn } from './helpers';

const dirs = e2eDirs();
const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', name);
const lockDown = (settings: Record<string, unknown>) =>
  writeFileIn(join(dirs.home, 'settings.json'), JSON.stringify(settings));
const DISABLED = { security: { disableYoloMode: true } };
const SECURE = { admin: { secureModeEnabled: true } };

describe('yolo under lock-down: the CLI flags and settings', () => {
  const kodo = (args: string[]) =>
    runKodo(['-p', 'x', '--fake-responses', fixture('policy-shell.jsonl'), ...args], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, KODO_SANDBOX: 'false' },
    });

  it.each([
    ['-y', ['-y'], DISABLED, 'security.disableYoloMode'],
    ['--approval-mode yolo', ['--approval-mode', 'yolo'], SECURE, 'admin.secureModeEnabled'],
    ['--approval-mode=yolo', ['--approval-mode=yolo', '-o', 'json'], DISABLED, 'security.disableYoloMode'],
  ])('%s exits 52 naming the setting, and runs nothing', async (_name, flags, settings, key) => {
    lockDown(settings);
    const run = await kodo(flags);
    expect(run.code).toBe(52);
    expect(run.stderr).toContain(key);
    expect(run.stderr).toMatch(/yolo/i);
    expect(existsSync(join(dirs.workspace, 'f'))).toBe(false);
    expect(run.stdout).not.toContain('hi');
  });

  it("a project's settings cannot turn the user's lock-down off", async () => {
    lockDown(DISABLED);
    writeFileIn(
      join(dirs.workspace, '.kodo', 'settings.json'),
      JSON.stringify({ security: { disableYoloMode: false }, admin: { secureModeEnabled: false } }),
    );
    const run = await kodo(['-y']);
    expect(run.code).toBe(52);
    expect(run.stderr).toContain('security.disableYoloMode');
    expect(existsSync(join(dirs.workspace, 'f'))).toBe(false);
  });

  it('control: without the lock-down, -y runs the commands', async () => {
    const run = await kodo(['-y']);
    expect(run.code).toBe(0);
    expect(existsSync(join(dirs.workspace, 'f'))).toBe(true);
  });
});

describe('yolo under lock-down: ACP', () => {
  it('session/set_mode and set_config_option to yolo are refused; the session stays as it was', async () => {
    lockDown(SECURE);
    const kodo = startAcpKodo({
      cwd: dirs.workspace,
      env: {
        KODO_HOME: dirs.home,
        GEMINI_CLI_HOME: dirs.home,
        GEMINI_API_KEY: 'test-key',
        KODO_SANDBOX: 'false',
      },
      args: ['--fake-responses', fixture('write-file.jsonl')],
      permission: 'cancel',
    });
    try {
      await kodo.initialize();
      const { sessionId } = await kodo.agent.request('session/new', { cwd: dirs.workspace, mcpServers: [] });
      await expect(
        kodo.agent.request('session/set_mode', { sessionId, modeId: 'yolo' }),
      ).rejects.toMatchObject({ message: expect.stringContaining('admin.secureModeEnabled') });
      await expect(
        kodo.agent.request('session/set_config_option', { sessionId, configId: 'mode', value: 'yolo' }),
      ).rejects.toMatchObject({ message: expect.stringContaining('admin.secureModeEnabled') });
      // Still default: the write asks (and the editor says no), nothing is written.
      await kodo.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
      expect(kodo.permissions).toHaveLength(1);
      expect(existsSync(join(dirs.workspace, 'notes', 'hello.txt'))).toBe(false);
    } finally {
      await kodo.close();
    }
  });
});

describe('yolo under lock-down: kodo mcp serve', () => {
  async function connect(flags: string[]): Promise<Client> {
    const client = new Client({ name: 'kodo-e2e', version: '0' }, { capabilities: {} });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [KODO_BIN, 'mcp', 'serve', ...flags],
        env: spawnedKodoEnv(dirs.home, {
          GEMINI_CLI_HOME: dirs.home,
          GEMINI_API_KEY: 'test-key',
          KODO_SANDBOX: 'false',
        }),
        cwd: dirs.workspace,
        stderr: 'pipe',
      }),
    );
    return client;
  }
  /** One tool call on a fresh `kodo mcp serve <flags>`: whether it failed, and its text. */
  async function callServe(flags: string[], name: string, args: Record<string, unknown>) {
    const client = await connect(flags);
    try {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
      return { isError: result.isError === true, text };
    } finally {
      await client.close();
    }
  }
  const BUILTIN_YOLO = ['--tools', 'builtin', '--approval-mode', 'yolo'];
  const PLANT = { file_path: 'planted.txt', content: 'x' };

  it("the kodo tool's approval-mode yolo is refused with the reason", async () => {
    lockDown(DISABLED);
    const result = await callServe(['--fake-responses', fixture('policy-shell.jsonl')], 'kodo', {
      prompt: 'x',
      'approval-mode': 'yolo',
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('security.disableYoloMode');
    expect(existsSync(join(dirs.workspace, 'f'))).toBe(false);
  });

  it('--tools builtin started in yolo runs no tool call unasked', async () => {
    lockDown(SECURE);
    const result = await callServe(BUILTIN_YOLO, 'write_file', PLANT);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('admin.secureModeEnabled');
    expect(existsSync(join(dirs.workspace, 'planted.txt'))).toBe(false);
  });

  it('control: without the lock-down, --tools builtin in yolo writes', async () => {
    const result = await callServe(BUILTIN_YOLO, 'write_file', PLANT);
    expect(result.isError).toBe(false);
    expect(existsSync(join(dirs.workspace, 'planted.txt'))).toBe(true);
  });
});
