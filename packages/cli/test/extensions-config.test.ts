import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type ExtensionsCommandContext, runExtensionsCommand } from '../src/commands/extensions';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

function setup() {
  ws = createTempWorkspace({
    'src/gemini-extension.json': JSON.stringify({
      name: 'svc',
      version: '1.0.0',
      settings: [
        { name: 'url', description: 'Service URL', envVar: 'SVC_URL' },
        { name: 'token', description: 'API token', envVar: 'SVC_TOKEN', sensitive: true },
      ],
      mcpServers: { svc: { command: 'node', args: ['s.js'] } },
    }),
    'project/.keep': '',
  });
  const env = { HOME: `${ws.root}/home`, KODO_HOME: `${ws.root}/kodo`, GEMINI_CLI_HOME: `${ws.root}/home` };
  const run = async (args: string[], extra: Partial<ExtensionsCommandContext> = {}) => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk) => (out += chunk));
    stderr.on('data', (chunk) => (err += chunk));
    const code = await runExtensionsCommand({
      args,
      cwd: join(ws!.root, 'project'),
      env,
      stdout,
      stderr,
      interactive: false,
      ...extra,
    });
    return { code, out, err };
  };
  return { env, run, dir: join(ws.root, 'kodo', 'extensions', 'svc') };
}

describe('kodo extensions: settings', () => {
  it('installs without a terminal without asking, and says which settings to configure', async () => {
    const { run } = setup();
    const asked: string[] = [];
    const result = await run(['install', `${ws!.root}/src`, '--consent'], {
      askValue: async (question) => {
        asked.push(question);
        return 'never';
      },
    });
    expect(result.code).toBe(0);
    expect(asked).toEqual([]);
    expect(result.err).toContain(
      '[WARNING] Extension "svc" has settings without a value (no terminal to ask on): url (SVC_URL), token (SVC_TOKEN). Please run "kodo extensions config svc [setting-name]" to configure them.',
    );
  });

  it('asks each setting at an interactive install (the sensitive one hidden); --skip-settings asks none', async () => {
    const { run, dir, env } = setup();
    const asked: { question: string; hidden: boolean }[] = [];
    const result = await run(['install', `${ws!.root}/src`, '--consent'], {
      interactive: true,
      askValue: async (question, options) => {
        asked.push({ question, hidden: options.hidden });
        return options.hidden ? 'tok-123' : 'http://u';
      },
    });
    expect(result.code).toBe(0);
    expect(asked).toEqual([
      { question: 'url (Service URL): ', hidden: false },
      { question: 'token (API token): ', hidden: true },
    ]);
    expect(result.err).not.toContain('without a value');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('SVC_URL=http://u\n');
    expect(readFileSync(join(env.KODO_HOME, 'extension-secrets.json'), 'utf8')).toContain('tok-123');
    // The JSON listing never shows a sensitive value, even where it was substituted.
    const list = await run(['list', '-o', 'json']);
    expect(list.out).toContain('http://u');
    expect(list.out).not.toContain('tok-123');
    expect(list.out).toContain('"SVC_TOKEN": "***"');

    await run(['uninstall', 'svc']);
    const skipped: string[] = [];
    const again = await run(['install', `${ws!.root}/src`, '--consent', '--skip-settings'], {
      interactive: true,
      askValue: async (question) => {
        skipped.push(question);
        return 'x';
      },
    });
    expect(skipped).toEqual([]);
    expect(again.err).toContain('without a value (--skip-settings)');
  });

  it('config: a piped value sets one setting; without a setting name it lists their state and never waits', async () => {
    const { run, dir } = setup();
    await run(['install', `${ws!.root}/src`, '--consent']);
    const piped = await run(['config', 'svc', 'SVC_TOKEN'], { readInput: async () => 'piped-secret\n' });
    expect(piped.code).toBe(0);
    expect(piped.out).toContain('token (SVC_TOKEN) saved for scope "user"');
    const byName = await run(['config', 'svc', 'url'], { readInput: async () => 'http://piped\n' });
    expect(byName.code).toBe(0);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('SVC_URL=http://piped\n');
    const listed = await run(['config', 'svc'], {
      readInput: async () => {
        throw new Error('must not read input');
      },
    });
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('url (SVC_URL): = http://piped');
    expect(listed.out).toContain('token (SVC_TOKEN, sensitive): set');
    expect(listed.out).not.toContain('piped-secret');
    const empty = await run(['config', 'svc', 'url'], { readInput: async () => '' });
    expect(empty.code).toBe(1);
    expect(empty.err).toContain('No value for url');
    const unknown = await run(['config', 'svc', 'nope'], { readInput: async () => 'v' });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Its settings: url, token.');
  });

  it('config on a terminal asks again, keeps a value on an empty answer, and writes the workspace scope', async () => {
    const { run } = setup();
    await run(['install', `${ws!.root}/src`, '--consent']);
    await run(['config', 'svc', 'url'], { readInput: async () => 'http://old' });
    const questions: string[] = [];
    const result = await run(['config', 'svc', '--scope', 'workspace'], {
      interactive: true,
      askValue: async (question, options) => {
        questions.push(question);
        return options.hidden ? 'ws-token' : '';
      },
    });
    expect(result.code).toBe(0);
    expect(questions).toEqual(['url (Service URL) [http://old; Enter keeps it]: ', 'token (API token): ']);
    expect(result.out).toContain('token (SVC_TOKEN) saved for scope "workspace"');
    expect(result.out).not.toContain('url (SVC_URL) saved');
  });
});
