import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverExtensions } from '../../src/extensions/discover';
import { ExtensionEnablement } from '../../src/extensions/enablement';
import { installExtension } from '../../src/extensions/install';
import { extensionLocations } from '../../src/extensions/locations';
import { parseGeminiManifest } from '../../src/extensions/manifest';
import { substituteVariables } from '../../src/extensions/variables';
import { loadPolicyEngine } from '../../src/scheduler/policy/sources';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

describe('extension manifests', () => {
  it('validates the name and version and strips trust from MCP servers', () => {
    expect(parseGeminiManifest('{"name":"a b","version":"1"}', 'f')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Invalid extension name'),
    });
    expect(parseGeminiManifest('{"name":"a"}', 'f')).toEqual({
      ok: false,
      message: 'Invalid configuration in f: missing "version"',
    });
    const parsed = parseGeminiManifest(
      '{"name":"a","version":"1","mcpServers":{"s":{"command":"x","trust":true}},"extra":1}',
      'f',
    );
    expect(parsed).toMatchObject({ ok: true, value: { mcpServers: { s: { command: 'x' } } } });
  });

  it('substitutes ${extensionPath}, ${/}, settings and env variables; leaves unknown ones', () => {
    const out = substituteVariables(
      { command: '${extensionPath}${/}run', args: ['$TOKEN', '${MISSING:-dflt}', '${unknownThing}'] },
      { extensionPath: '/ext', workspacePath: '/w', values: { TOKEN: 't0k' } },
    );
    expect(out).toEqual({ command: '/ext/run', args: ['t0k', 'dflt', '${unknownThing}'] });
  });

  it('reads the text once: a path with $ in it is put in as it is and not substituted again', () => {
    const out = substituteVariables(
      { command: '${extensionPath}/run', args: ['${workspacePath}', '$TOKEN', '${CLAUDE_PLUGIN_ROOT}'] },
      {
        extensionPath: '/ext/$HOME/$&',
        workspacePath: '/w/${TOKEN}',
        values: { TOKEN: '$1', HOME: '/home/u' },
      },
    );
    expect(out).toEqual({ command: '/ext/$HOME/$&/run', args: ['/w/${TOKEN}', '$1', '/ext/$HOME/$&'] });
  });

  it('without settings values leaves $VAR alone but still fills the folders', () => {
    expect(
      substituteVariables('${workspacePath}${pathSeparator}$HOME ${A:-b}', {
        extensionPath: '/e',
        workspacePath: '/w',
      }),
    ).toBe('/w/$HOME ${A:-b}');
  });
});

describe('enablement', () => {
  it('applies the last matching rule; a trailing * covers subfolders; no rule = enabled', () => {
    ws = createTempWorkspace();
    const enablement = ExtensionEnablement.inDirs(ws.root);
    expect(enablement.isEnabled('x', '/a/b')).toBe(true);
    enablement.set('x', '/', false);
    expect(enablement.isEnabled('x', '/a/b')).toBe(false);
    enablement.set('x', '/a', true);
    expect(enablement.isEnabled('x', '/a/b')).toBe(true);
    expect(enablement.isEnabled('x', '/c')).toBe(false);
  });
});

describe('installing', () => {
  const setup = () => {
    ws = createTempWorkspace({
      'src/gemini-extension.json': JSON.stringify({
        name: 'demo',
        version: '1.0.0',
        mcpServers: { s: { command: 'node', args: ['${extensionPath}/s.js'] } },
      }),
      'src/hooks/hooks.json': JSON.stringify({
        hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'true' }] }] },
      }),
      'src/policies/p.toml':
        '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 900\n\n[[rule]]\ntoolName = "write_file"\ndecision = "deny"\npriority = 10\n',
      'plugin/.claude-plugin/plugin.json': JSON.stringify({ name: 'plug' }),
      'plugin/hooks/hooks.json': JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'x' }] }] },
      }),
    });
    const env = { HOME: `${ws.root}/home`, KODO_HOME: `${ws.root}/kodo`, GEMINI_CLI_HOME: `${ws.root}/home` };
    return { env, locations: extensionLocations(env) };
  };

  it('shows the consent text first; a refusal leaves nothing behind', async () => {
    const { env, locations } = setup();
    let shown = '';
    await expect(
      installExtension({
        source: `${ws!.root}/src`,
        locations,
        cwd: ws!.root,
        env,
        confirm: async (text) => {
          shown = text;
          return false;
        },
      }),
    ).rejects.toThrow('Installation cancelled for "demo".');
    expect(shown).toContain(`* s (local): node ${ws!.root}/kodo/extensions/`);
    expect(shown).toContain('contains Hooks');
    expect(shown).toContain('Policies:\n  * p');
    expect(readdirSync(locations.kodo)).toEqual([]);
  });

  it('copies a local extension, refuses a second install, and reads a plugin with mapped hooks', async () => {
    const { env, locations } = setup();
    const yes = async () => true;
    const installed = await installExtension({
      source: `${ws!.root}/src`,
      locations,
      cwd: ws!.root,
      env,
      confirm: yes,
    });
    expect(installed.installDir).toBe(join(locations.kodo, 'demo'));
    expect(existsSync(join(locations.kodo, 'demo', '.gemini-extension-install.json'))).toBe(true);
    await expect(
      installExtension({ source: `${ws!.root}/src`, locations, cwd: ws!.root, env, confirm: yes }),
    ).rejects.toThrow('Extension "demo" is already installed. Please uninstall it first.');
    await installExtension({ source: `${ws!.root}/plugin`, locations, cwd: ws!.root, env, confirm: yes });
    const { extensions } = discoverExtensions({ locations, cwd: ws!.root, env });
    const plugin = extensions.find((extension) => extension.name === 'plug');
    expect(plugin?.kind).toBe('claude-plugin');
    expect(plugin?.hooks).toEqual({
      BeforeTool: [{ matcher: 'write_file|replace', hooks: [{ type: 'command', command: 'x' }] }],
    });
  });

  it("drops an extension policy's allow rules, keeps its deny rules", async () => {
    const { env } = setup();
    const engine = await loadPolicyEngine({
      cwd: ws!.root,
      env,
      extensionPolicyDirs: [`${ws!.root}/src/policies`],
      includeWorkspacePolicies: false,
    });
    const check = (name: string) =>
      engine.check(
        { name, kind: 'execute', args: { command: 'ls' } },
        { mode: 'default', interactive: true },
      );
    expect((await check('run_shell_command')).decision).toBe('ask_user');
    expect((await check('write_file')).decision).toBe('deny');
  });
});
