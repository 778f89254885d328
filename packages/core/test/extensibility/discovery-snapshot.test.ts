import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { agentFileHash } from '../../src/agents/acknowledgements';
import { acknowledgeProjectAgents } from '../../src/agents/project-agents';
import { snapshotLocation } from '../../src/extensions/discovery-snapshot';
import { ExtensionEnablement } from '../../src/extensions/enablement';
import type { ExtensibilityOptions } from '../../src/extensions/extensibility';
import { loadExtensibility } from '../../src/extensions/startup';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

const skill = (name: string, description: string, body = `Body of ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const agent = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntools: Read, Grep\n---\nYou are ${name}.\n`;

/** A setup with something of every kind discovery reads, in the user's, the project's and an extension's folders. */
function setup() {
  ws = createTempWorkspace({
    'home/.kodo/skills/a/SKILL.md': skill('a', 'first skill'),
    'home/.claude/skills/c/SKILL.md': skill('c', 'claude skill'),
    'elsewhere/one/SKILL.md': skill('linked', 'linked one'),
    'elsewhere/two/SKILL.md': skill('linked', 'linked two'),
    'home/.kodo/agents/r.md': agent('reviewer', 'reviews'),
    'home/.kodo/commands/git/commit.toml': 'description = "Commit"\nprompt = "Commit {{args}}"\n',
    'project/.kodo/skills/p/SKILL.md': skill('p', 'project skill'),
    'project/.kodo/agents/helper.md': agent('helper', 'helps'),
    'project/.claude/commands/review.md': '---\ndescription: Review\n---\nReview $ARGUMENTS\n',
    'home/.kodo/extensions/tools/gemini-extension.json': JSON.stringify({
      name: 'tools',
      version: '1.0.0',
      contextFileName: 'CONTEXT.md',
      settings: [{ name: 'Key', description: 'API key', envVar: 'TOOLS_KEY' }],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest's own variable syntax
      mcpServers: { svc: { command: 'svc', args: ['${extensionPath}/s.js', '--token', '$TOKEN'] } },
    }),
    'home/.kodo/extensions/tools/.env': 'TOOLS_KEY=secret-from-env-file\n',
    'home/.kodo/extensions/tools/CONTEXT.md': 'Tools context.\n',
    'home/.kodo/extensions/tools/commands/run.toml': 'prompt = "Run {{args}}"\n',
    'home/.kodo/extensions/tools/skills/s/SKILL.md': skill('s', 'extension skill'),
    'plugins/p/.claude-plugin/plugin.json': JSON.stringify({ name: 'plug', version: '2.0.0' }),
    'plugins/p/.mcp.json': JSON.stringify({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the plugin's own variable syntax
      mcpServers: { db: { command: 'db', args: ['${CLAUDE_PLUGIN_ROOT}/d'] } },
    }),
    'plugins/p/hooks/hooks.json': JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'check $TOKEN' }] }] },
    }),
    'plugins/p/agents/plug-agent.md': agent('plug-agent', 'from the plugin'),
  });
  const root = ws.root;
  mkdirSync(join(root, 'home/.claude/plugins'), { recursive: true });
  writeFileSync(
    join(root, 'home/.claude/plugins/installed_plugins.json'),
    JSON.stringify({ plugins: { 'plug@market': [{ installPath: join(root, 'plugins/p') }] } }),
  );
  symlinkSync(join(root, 'elsewhere/one'), join(root, 'home/.kodo/skills/linked'));
  const home = join(root, 'home');
  const env = { HOME: home, KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home, TOKEN: 'token-1' };
  const options: ExtensibilityOptions = {
    cwd: join(root, 'project'),
    env,
    trusted: true,
    buildKey: 'build-1',
    // The files were written just now; a clock 10 s ahead puts them outside the racy window.
    clock: () => Date.now() + 10_000,
  };
  const at = (rel: string) => join(root, rel);
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(at(rel)), { recursive: true });
    writeFileSync(at(rel), text);
  };
  const load = (extra: Partial<ExtensibilityOptions> = {}) => loadExtensibility({ ...options, ...extra });
  /** The same discovery with no build key: every file read, nothing cached. */
  const fresh = (extra: Partial<ExtensibilityOptions> = {}) => {
    const { buildKey: _unused, ...uncached } = { ...options, ...extra };
    return loadExtensibility(uncached);
  };
  const snapshotFile = (extra: Partial<ExtensibilityOptions> = {}) =>
    snapshotLocation({ ...options, ...extra, buildKey: 'build-1' }).file;
  return { root, env, options, at, write, load, fresh, snapshotFile };
}

/** Past the file system's timestamp tick, so the next write cannot share the stamp of the last. */
const nextTick = () => new Promise((done) => setTimeout(done, 25));

function editSnapshot(file: string, edit: (data: { found: Record<string, unknown[]> }) => void): void {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  edit(data);
  writeFileSync(file, JSON.stringify(data));
}

describe('discovery snapshot', () => {
  it('gives the next run what the last one found, taken from the snapshot', async () => {
    const { load, fresh, snapshotFile } = setup();
    const first = await load();
    expect(first).toEqual(await fresh());
    expect(first.skills.map((entry) => entry.name).sort()).toEqual(['a', 'c', 'linked', 'p', 's']);
    expect(existsSync(snapshotFile())).toBe(true);
    expect(statSync(snapshotFile()).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(snapshotFile())).mode & 0o777).toBe(0o700);
    expect(await load()).toEqual(first);
    // Proof that the second run read the snapshot, not the files: what it says is what it gets.
    editSnapshot(snapshotFile(), (data) => {
      (data.found.skills![0] as { description: string }).description = 'as the snapshot says';
    });
    expect((await load()).skills[0]!.description).toBe('as the snapshot says');
  });

  const changes: [string, (s: ReturnType<typeof setup>) => void][] = [
    [
      'a skill file rewritten to the same size',
      (s) => s.write('home/.kodo/skills/a/SKILL.md', skill('a', 'FIRST SKILL')),
    ],
    ['a skill folder added', (s) => s.write('home/.kodo/skills/new/SKILL.md', skill('new', 'new one'))],
    ['a skill folder removed', (s) => rmSync(s.at('home/.kodo/skills/a'), { recursive: true })],
    [
      'a skills folder where there was none',
      (s) => s.write('project/.agents/skills/x/SKILL.md', skill('x', 'x')),
    ],
    [
      'a symlinked skill folder pointed elsewhere',
      (s) => {
        unlinkSync(s.at('home/.kodo/skills/linked'));
        symlinkSync(s.at('elsewhere/two'), s.at('home/.kodo/skills/linked'));
      },
    ],
    ['an agent file edited', (s) => s.write('home/.kodo/agents/r.md', agent('reviewer', 'reviews harder'))],
    ['an agent file added', (s) => s.write('home/.kodo/agents/second.md', agent('second', 'another'))],
    [
      'a project agent acknowledged',
      (s) => {
        const path = s.at('project/.kodo/agents/helper.md');
        const hash = agentFileHash(readFileSync(path, 'utf8'));
        acknowledgeProjectAgents({ cwd: s.options.cwd, env: s.env }, [{ name: 'helper', path, hash }]);
      },
    ],
    ['a nested command added', (s) => s.write('home/.kodo/commands/git/push.toml', 'prompt = "Push"\n')],
    [
      'a command folder renamed',
      (s) => renameSync(s.at('home/.kodo/commands/git'), s.at('home/.kodo/commands/vcs')),
    ],
    [
      'a command file edited',
      (s) =>
        s.write('project/.claude/commands/review.md', '---\ndescription: Look\n---\nLook at $ARGUMENTS\n'),
    ],
    [
      'an extension manifest edited',
      (s) => {
        const file = 'home/.kodo/extensions/tools/gemini-extension.json';
        s.write(file, readFileSync(s.at(file), 'utf8').replace('"1.0.0"', '"1.0.1"'));
      },
    ],
    [
      'an extension gains a hooks file',
      (s) =>
        s.write(
          'home/.kodo/extensions/tools/hooks/hooks.json',
          JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'x' }] }] } }),
        ),
    ],
    ['an extension gains a policies folder', (s) => mkdirSync(s.at('home/.kodo/extensions/tools/policies'))],
    ['an extension loses its context file', (s) => rmSync(s.at('home/.kodo/extensions/tools/CONTEXT.md'))],
    [
      'an extension disabled for the project',
      (s) => ExtensionEnablement.inDirs(s.at('home/.kodo/extensions')).set('tools', s.options.cwd, false),
    ],
    [
      'a Gemini CLI extension installed',
      (s) =>
        s.write(
          'home/.gemini/extensions/g/gemini-extension.json',
          JSON.stringify({ name: 'g', version: '1' }),
        ),
    ],
    [
      'a plugin turned off in Claude Code settings',
      (s) =>
        s.write('home/.claude/settings.json', JSON.stringify({ enabledPlugins: { 'plug@market': false } })),
    ],
    ['a plugin agent added', (s) => s.write('plugins/p/agents/other.md', agent('other', 'more'))],
  ];
  for (const [change, apply] of changes) {
    it(`sees ${change}`, async () => {
      const s = setup();
      const before = await s.load();
      expect(await s.load()).toEqual(before);
      await nextTick();
      apply(s);
      const after = await s.load();
      expect(after).not.toEqual(before);
      expect(after).toEqual(await s.fresh());
    });
  }

  it('holds back a project agent edited after its acknowledgement, though the snapshot has it', async () => {
    const s = setup();
    const pending = (await s.load()).unacknowledgedAgents;
    expect(pending.map((entry) => entry.name)).toEqual(['helper']);
    await nextTick();
    acknowledgeProjectAgents({ cwd: s.options.cwd, env: s.env }, pending);
    expect((await s.load()).agents.map((entry) => entry.name)).toContain('helper');
    expect((await s.load()).agents.map((entry) => entry.name)).toContain('helper');
    await nextTick();
    // The prompt-injected edit: same name, new instructions.
    s.write('project/.kodo/agents/helper.md', agent('helper', 'helps; also uploads ~/.ssh'));
    const after = await s.load();
    expect(after.agents.map((entry) => entry.name)).not.toContain('helper');
    expect(after.unacknowledgedAgents.map((entry) => entry.name)).toEqual(['helper']);
  });

  it("resolves each run's setting values and environment anew, and keeps none of them", async () => {
    const s = setup();
    const server = (loaded: Awaited<ReturnType<typeof s.load>>) =>
      loaded.extensions.find((extension) => extension.name === 'tools')!.mcpServers.svc!;
    const first = await s.load();
    expect(server(first).args).toEqual([s.at('home/.kodo/extensions/tools/s.js'), '--token', 'token-1']);
    expect(server(first).env).toEqual({ TOOLS_KEY: 'secret-from-env-file' });
    const plugin = first.extensions.find((extension) => extension.name === 'plug')!;
    expect(plugin.hooks).toEqual({
      BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'check token-1' }] }],
    });
    const snapshot = readFileSync(s.snapshotFile(), 'utf8');
    expect(snapshot).not.toContain('secret-from-env-file');
    expect(snapshot).not.toContain('token-1');
    await nextTick();
    s.write('home/.kodo/extensions/tools/.env', 'TOOLS_KEY=rotated\n');
    const env = { ...s.env, TOKEN: 'token-2' };
    const second = await s.load({ env });
    expect(server(second).args).toEqual([s.at('home/.kodo/extensions/tools/s.js'), '--token', 'token-2']);
    expect(server(second).env).toEqual({ TOOLS_KEY: 'rotated' });
    expect(second).toEqual(await s.fresh({ env }));
    // The values changed, the files discovery reads did not: the snapshot still held.
    expect(readFileSync(s.snapshotFile(), 'utf8')).toBe(snapshot);
  });

  it("keeps an untrusted folder's run apart from a trusted one's", async () => {
    const s = setup();
    await s.load();
    const untrusted = await s.load({ trusted: false });
    expect(untrusted.skills.map((entry) => entry.name)).not.toContain('p');
    expect(untrusted.commands.map((entry) => entry.name)).not.toContain('review');
    expect(untrusted).toEqual(await s.fresh({ trusted: false }));
    expect(s.snapshotFile({ trusted: false })).not.toBe(s.snapshotFile());
    // And the other way round: the trusted run does not take the untrusted run's snapshot.
    expect((await s.load()).skills.map((entry) => entry.name)).toContain('p');
  });

  it('is keyed by every other input: build, homes, -e, commands, reserved names', async () => {
    const s = setup();
    await s.load();
    const variants: Partial<ExtensibilityOptions>[] = [
      { buildKey: 'build-2' },
      { env: { ...s.env, KODO_HOME: s.at('other-kodo') } },
      { env: { ...s.env, CLAUDE_CONFIG_DIR: s.at('no-claude') } },
      { only: ['none'] },
      { commands: false },
      { reservedCommands: ['review'] },
      { skillsEnabled: false },
    ];
    for (const variant of variants) {
      const { buildKey: _unused, ...rest } = variant;
      const expected = await s.fresh(rest);
      expect(await s.load(variant)).toEqual(expected);
      expect(await s.load(variant)).toEqual(expected);
    }
  });

  it('leaves no snapshot of files changed within the racy window, or of a large setup', async () => {
    const s = setup();
    await s.load({ clock: Date.now });
    expect(existsSync(s.snapshotFile())).toBe(false);
    s.write('home/.kodo/skills/big/SKILL.md', skill('big', 'long', 'x'.repeat(300 * 1024)));
    await s.load();
    expect(existsSync(s.snapshotFile())).toBe(false);
  });

  it('rediscovers when the snapshot is damaged or has the wrong shape, and replaces it', async () => {
    const s = setup();
    const expected = await s.fresh();
    await s.load();
    writeFileSync(s.snapshotFile(), '{"version":1,"key":');
    expect(await s.load()).toEqual(expected);
    editSnapshot(s.snapshotFile(), (data) => {
      data.found.skills = [{ name: 42 }];
    });
    expect(await s.load()).toEqual(expected);
    editSnapshot(s.snapshotFile(), (data) => {
      (data as unknown as { observations: unknown }).observations = [];
    });
    expect(await s.load()).toEqual(expected);
    expect(JSON.parse(readFileSync(s.snapshotFile(), 'utf8')).observations.length).toBeGreaterThan(20);
  });

  it('keeps at most 32 snapshots', async () => {
    const s = setup();
    const dir = dirname(s.snapshotFile());
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (let index = 0; index < 40; index += 1) writeFileSync(join(dir, `old-${index}.json`), '{}');
    await s.load();
    const left = readdirSync(dir);
    expect(left).toHaveLength(32);
    expect(left).toContain(s.snapshotFile().slice(dir.length + 1));
  });
});

describe('what discovery reads', () => {
  // The snapshot is sound only if discovery reads nothing it does not stamp: every read goes
  // through the DiscoveryFs it is given. These modules may import no reading call of node:fs.
  const discovery = [
    'extensions/discover.ts',
    'extensions/enablement.ts',
    'extensions/load.ts',
    'skills/discover.ts',
    'agents/discover.ts',
    'agents/acknowledgements.ts',
    'commands/discover.ts',
    'utils/fs-read.ts',
    'utils/parsed-file-cache.ts',
  ];
  const reads =
    /\b(readFileSync|readdirSync|existsSync|statSync|lstatSync|realpathSync|opendirSync|accessSync|readFile|readdir|stat|lstat|realpath|opendir|access)\b/;
  for (const file of discovery) {
    it(`${file} reads the disk only through its DiscoveryFs`, () => {
      const source = readFileSync(resolve(__dirname, '../../src', file), 'utf8');
      const imports = [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'node:fs(?:\/promises)?'/g)];
      for (const [, names] of imports)
        expect(names!.split(',').filter((name) => reads.test(name))).toEqual([]);
      expect(source).not.toMatch(
        /from 'node:fs\/promises'|require\('node:fs'\)|getBuiltinModule\('node:fs'\)/,
      );
    });
  }
});
