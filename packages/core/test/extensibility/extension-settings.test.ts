import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverExtensions } from '../../src/extensions/discover';
import { installExtension, uninstallExtension, updateExtension } from '../../src/extensions/install';
import { extensionLocations } from '../../src/extensions/locations';
import { readSettingValues, secretsFile, writeSetting } from '../../src/extensions/settings-store';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

const manifest = {
  name: 'svc',
  version: '1.0.0',
  settings: [
    { name: 'API URL', description: 'Where the service runs', envVar: 'SVC_URL' },
    { name: 'Token', description: 'Your token', envVar: 'SVC_TOKEN', sensitive: true },
  ],
  mcpServers: {
    svc: { command: 'node', args: ['${extensionPath}/server.js', '--url', '${SVC_URL}'], env: { OWN: '1' } },
    remote: { httpUrl: 'https://example.invalid/mcp' },
  },
};

function setup() {
  ws = createTempWorkspace({
    'src/gemini-extension.json': JSON.stringify(manifest),
    'src/hooks/hooks.json': JSON.stringify({
      hooks: {
        BeforeTool: [{ hooks: [{ type: 'command', command: 'check', env: { SVC_URL: 'hook-own' } }] }],
      },
    }),
    'project/.keep': '',
  });
  const env = { HOME: `${ws.root}/home`, KODO_HOME: `${ws.root}/kodo`, GEMINI_CLI_HOME: `${ws.root}/home` };
  const cwd = join(ws.root, 'project');
  return { env, cwd, locations: extensionLocations(env) };
}

describe('extension settings', () => {
  it('asks each setting at install: plain values in the .env, sensitive ones only in the 0600 secrets file', async () => {
    const { env, cwd, locations } = setup();
    const asked: string[] = [];
    const installed = await installExtension({
      source: `${ws!.root}/src`,
      locations,
      cwd,
      env,
      confirm: async () => true,
      askSetting: async (setting) => {
        asked.push(setting.envVar);
        return setting.sensitive ? 's3cret' : 'http://svc.local';
      },
    });
    expect(asked).toEqual(['SVC_URL', 'SVC_TOKEN']);
    expect(installed.missingSettings).toEqual([]);
    const dotEnv = readFileSync(join(installed.installDir, '.env'), 'utf8');
    expect(dotEnv).toBe('SVC_URL=http://svc.local\n');
    expect(dotEnv).not.toContain('s3cret');
    const secrets = secretsFile(env);
    expect(JSON.parse(readFileSync(secrets, 'utf8'))).toEqual({ svc: { user: { SVC_TOKEN: 's3cret' } } });
    expect(statSync(secrets).mode & 0o777).toBe(0o600);

    // What the extension starts gets the values: its local MCP server (its own env wins) and hooks.
    const [extension] = discoverExtensions({ locations, cwd, env }).extensions;
    expect(extension!.mcpServers.svc).toEqual({
      command: 'node',
      args: [`${installed.installDir}/server.js`, '--url', 'http://svc.local'],
      env: { SVC_URL: 'http://svc.local', SVC_TOKEN: 's3cret', OWN: '1' },
    });
    expect(extension!.mcpServers.remote).toEqual({ httpUrl: 'https://example.invalid/mcp' });
    expect(extension!.hooks).toEqual({
      BeforeTool: [
        { hooks: [{ type: 'command', command: 'check', env: { SVC_URL: 'hook-own', SVC_TOKEN: 's3cret' } }] },
      ],
    });

    // Uninstalling forgets the secrets too.
    await uninstallExtension({ name: 'svc', locations, cwd, env });
    expect(JSON.parse(readFileSync(secrets, 'utf8'))).toEqual({});
  });

  it('headless (nothing asked): installs, reports the missing settings, and warns at every load', async () => {
    const { env, cwd, locations } = setup();
    const installed = await installExtension({
      source: `${ws!.root}/src`,
      locations,
      cwd,
      env,
      confirm: async () => true,
    });
    expect(installed.missingSettings.map((setting) => setting.envVar)).toEqual(['SVC_URL', 'SVC_TOKEN']);
    const found = discoverExtensions({ locations, cwd, env });
    expect(found.warnings).toContain(
      'Extension "svc" has settings without a value: API URL (SVC_URL), Token (SVC_TOKEN). Please run "kodo extensions config svc [setting-name]" to configure them.',
    );
    // A variable in the environment counts as a value.
    const withEnv = discoverExtensions({ locations, cwd, env: { ...env, SVC_URL: 'x', SVC_TOKEN: 'y' } });
    expect(withEnv.warnings).toEqual([]);
    expect(withEnv.extensions[0]!.mcpServers.svc!.args).toEqual([
      `${installed.installDir}/server.js`,
      '--url',
      'x',
    ]);
  });

  it('workspace scope: the workspace .env (declared variables only, trusted folders only) beats the user value', async () => {
    const { env, cwd, locations } = setup();
    const installed = await installExtension({
      source: `${ws!.root}/src`,
      locations,
      cwd,
      env,
      confirm: async () => true,
      askSetting: async (setting) => (setting.sensitive ? undefined : 'user-url'),
    });
    writeFileSync(join(cwd, '.env'), 'SVC_URL=workspace-url\nUNRELATED=1\n');
    const place = { name: 'svc', installDir: installed.installDir, cwd, env };
    writeSetting(place, manifest.settings[1]!, 'ws-token', 'workspace');
    const trusted = readSettingValues(place, manifest.settings, { trusted: true });
    expect(trusted.values).toEqual({ SVC_URL: 'workspace-url', SVC_TOKEN: 'ws-token' });
    const untrusted = readSettingValues(place, manifest.settings, { trusted: false });
    expect(untrusted.values.SVC_URL).toBe('user-url');
    // The workspace secret belongs to that workspace only.
    expect(
      readSettingValues({ ...place, cwd: ws!.root }, manifest.settings, { trusted: true }).values,
    ).toEqual({
      SVC_URL: 'user-url',
    });
    expect(readFileSync(join(cwd, '.env'), 'utf8')).not.toContain('ws-token');
  });

  it('rewrites one line of the .env and keeps the values across an update', async () => {
    const { env, cwd, locations } = setup();
    const installed = await installExtension({
      source: `${ws!.root}/src`,
      locations,
      cwd,
      env,
      confirm: async () => true,
      askSetting: async (setting) => (setting.sensitive ? undefined : 'first'),
    });
    const place = { name: 'svc', installDir: installed.installDir, cwd, env };
    writeFileSync(join(installed.installDir, '.env'), '# mine\nSVC_URL=first\nOTHER=keep\n');
    writeSetting(place, manifest.settings[0]!, 'with space "q"', 'user');
    expect(readFileSync(join(installed.installDir, '.env'), 'utf8')).toBe(
      '# mine\nOTHER=keep\nSVC_URL="with space \\"q\\""\n',
    );
    expect(readSettingValues(place, manifest.settings, { trusted: false }).values.SVC_URL).toBe(
      'with space "q"',
    );
    expect(() => writeSetting(place, manifest.settings[0]!, 'a\nb', 'user')).toThrow('cannot span lines');
    writeFileSync(
      join(ws!.root, 'src', 'gemini-extension.json'),
      JSON.stringify({ ...manifest, version: '1.1.0' }),
    );
    const outcome = await updateExtension({ name: 'svc', locations, cwd, env, confirm: async () => true });
    expect(outcome.state).toBe('updated');
    expect(readSettingValues(place, manifest.settings, { trusted: false }).values.SVC_URL).toBe(
      'with space "q"',
    );
  });
});
