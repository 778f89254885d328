import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GeminiMock,
  geminiFunctionCallReply,
  geminiTextReply,
  runKodo,
  startGeminiMock,
  tinyServerEntry,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs, type GeminiRequestBody, geminiMockEnv, writeFileIn } from './helpers';

// Users' existing setups, run unchanged by the built `kodo`: Gemini CLI TOML commands, Claude
// Code Markdown commands, skills in every layout, a Gemini CLI extension installed from a git
// repository, a Claude Code plugin. The mock Gemini server records what reaches the model.
const dirs = e2eDirs();
let mock: GeminiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const env = (extra: Record<string, string> = {}) => ({
  ...geminiMockEnv(dirs.home, mock?.url),
  HOME: dirs.home,
  ...extra,
});
const kodo = (args: string[], extra: Record<string, string> = {}) =>
  runKodo(args, { cwd: dirs.workspace, env: env(extra), timeoutMs: 30_000 });
const body = (index = 0) => mock!.requests[index]!.body as GeminiRequestBody;
const systemText = (index = 0) =>
  body(index)
    .systemInstruction?.parts.map((part) => part.text ?? '')
    .join('') ?? '';
const userText = (index = 0) =>
  body(index)
    .contents.filter((content) => content.role === 'user')
    .flatMap((content) => content.parts.map((part) => (typeof part.text === 'string' ? part.text : '')))
    .join('\n');
const toolNames = (index = 0) => body(index).tools?.[0]?.functionDeclarations.map((tool) => tool.name) ?? [];
const lastResponse = (index: number) =>
  (body(index).contents.at(-1)!.parts[0]!.functionResponse as { response: Record<string, unknown> }).response;
const userSettings = (value: unknown) => writeFileIn(join(dirs.home, 'settings.json'), JSON.stringify(value));

describe('custom commands, headless', () => {
  it('expands a Gemini CLI TOML command: {{args}}, !{…} through the policy, @{…} from the workspace', async () => {
    writeFileIn(
      join(dirs.home, '.gemini', 'commands', 'git', 'commit.toml'),
      'description = "Write a commit message"\nprompt = """\nCommit {{args}}.\nStatus: !{echo status-for {{args}}}\nNotes: @{notes.txt}\n"""\n',
    );
    writeFileIn(join(dirs.workspace, 'notes.txt'), 'remember the changelog');
    userSettings({ tools: { allowed: ['run_shell_command(echo)'] } });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Committed.') }] });
    const run = await kodo(['-p', '/git:commit now; rm -rf x']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = userText();
    expect(text).toContain('Commit now; rm -rf x.');
    // Inside !{…} the arguments are one shell-quoted word: the `;` did not start a command.
    expect(text).toContain('Status: status-for now; rm -rf x');
    expect(text).toContain('Notes: remember the changelog');
    expect(text).not.toContain('{{args}}');
  });

  it('refuses a command whose shell step the headless policy does not allow (exit 42, nothing sent)', async () => {
    writeFileIn(join(dirs.workspace, '.gemini', 'commands', 'st.toml'), 'prompt = "!{git status}"\n');
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('never') }] });
    const run = await kodo(['-p', '/st']);
    expect(run.code).toBe(42);
    expect(run.stderr).toContain("Shell command 'git status' was not run");
    expect(mock.requests).toHaveLength(0);
  });

  it('expands a Claude Code Markdown command with $ARGUMENTS, $N and an @file attachment', async () => {
    writeFileIn(
      join(dirs.workspace, '.claude', 'commands', 'frontend', 'review.md'),
      '---\ndescription: Review a component\nargument-hint: <file> <focus>\nallowed-tools: Read, Bash(git diff:*)\n---\nReview $0 with focus on $1 (all: $ARGUMENTS). Keep $5 as is. See @guide.md\n',
    );
    writeFileIn(join(dirs.workspace, 'guide.md'), 'Use small components.');
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Reviewed.') }] });
    const run = await kodo(['-p', '/frontend:review Button.tsx "accessibility and tests"']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = userText();
    expect(text).toContain(
      'Review Button.tsx with focus on accessibility and tests (all: Button.tsx "accessibility and tests"). Keep $5 as is.',
    );
    expect(text).toContain('Content from @guide.md:');
    expect(text).toContain('Use small components.');
  });

  it('stops on an unknown command with the list of known ones (exit 42)', async () => {
    writeFileIn(join(dirs.home, 'commands', 'hello.md'), '---\ndescription: Say hello\n---\nSay hello.\n');
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('never') }] });
    const run = await kodo(['-p', '/nope now']);
    expect(run.code).toBe(42);
    expect(run.stderr).toContain('Unknown command: /nope. Known commands:');
    expect(run.stderr).toContain('/hello  Say hello');
    expect(mock.requests).toHaveLength(0);
  });
});

describe('skills', () => {
  const layouts: [string, string][] = [
    ['gem-user', join('home', '.gemini', 'skills')],
    ['agents-user', join('home', '.agents', 'skills')],
    ['claude-user', join('home', '.claude', 'skills')],
    // KODO_HOME is the test's home folder itself.
    ['kodo-user', join('home', 'skills')],
    ['gem-proj', join('project', '.gemini', 'skills')],
    ['agents-proj', join('project', '.agents', 'skills')],
    ['claude-proj', join('project', '.claude', 'skills')],
  ];
  const writeSkills = () => {
    for (const [name, dir] of layouts) {
      writeFileIn(
        join(dirs.root, dir, name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: Does the ${name} thing: carefully\n---\nInstructions for ${name}.\n`,
      );
    }
    writeFileIn(
      join(dirs.root, 'home', '.claude', 'skills', 'claude-user', 'reference.md'),
      'the reference text',
    );
  };

  it('offers every layout by name and description only, and activates one (resources readable)', async () => {
    writeSkills();
    const resource = join(dirs.root, 'home', '.claude', 'skills', 'claude-user', 'reference.md');
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('activate_skill', { name: 'claude-user' }) },
        { chunks: geminiFunctionCallReply('read_file', { file_path: resource }) },
        { chunks: geminiTextReply('Done.') },
      ],
    });
    const run = await kodo(['-p', 'do the thing']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const system = systemText();
    expect(system).toContain('<available_skills>');
    for (const [name] of layouts) {
      expect(system).toContain(`<name>${name}</name>`);
      // The unquoted `:` breaks YAML; the line fallback still reads the description.
      expect(system).toContain(`<description>Does the ${name} thing: carefully</description>`);
      expect(system).not.toContain(`Instructions for ${name}.`);
    }
    expect(toolNames()).toContain('activate_skill');
    const activated = lastResponse(1).output as string;
    expect(activated).toContain('<activated_skill name="claude-user">');
    expect(activated).toContain('Instructions for claude-user.');
    expect(activated).toContain('reference.md');
    // The skill folder is outside the workspace, yet readable once activated.
    expect(lastResponse(2).output).toContain('the reference text');
  });

  it('leaves out skills named in skills.disabled, and the edit tools still cannot write a skill folder', async () => {
    writeSkills();
    userSettings({ skills: { disabled: ['GEM-USER'] } });
    const target = join(dirs.root, 'home', '.claude', 'skills', 'claude-user', 'evil.md');
    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('activate_skill', { name: 'claude-user' }) },
        { chunks: geminiFunctionCallReply('write_file', { file_path: target, content: 'x' }) },
        { chunks: geminiTextReply('Done.') },
      ],
    });
    const run = await kodo(['-p', 'go', '--yolo']);
    expect(run.code).toBe(0);
    expect(systemText()).not.toContain('<name>gem-user</name>');
    expect(systemText()).toContain('<name>agents-user</name>');
    expect(lastResponse(2).error).toMatch(/Path not in workspace/);
    expect(existsSync(target)).toBe(false);
  });

  /** kodo's caches keep nothing of files changed in the last 2 s (RACY_WINDOW_NS). */
  const pastRacyWindow = () => new Promise((done) => setTimeout(done, 2_100));
  const editProjectSkill = () =>
    writeFileIn(
      join(dirs.workspace, '.gemini', 'skills', 'gem-proj', 'SKILL.md'),
      '---\nname: gem-proj\ndescription: Now does another thing\n---\nNew instructions.\n',
    );

  it('offers a skill as it is now after an edit between runs (parse cache), and runs past a damaged cache', async () => {
    writeSkills();
    await pastRacyWindow();
    const cacheFile = join(dirs.home, 'cache', 'parsed-files.json');
    mock = await startGeminiMock({
      script: [1, 2, 3].map(() => ({ chunks: geminiTextReply('ok') })),
    });
    expect((await kodo(['-p', 'one'])).code).toBe(0);
    expect(readFileSync(cacheFile, 'utf8')).toContain('Does the gem-proj thing');
    editProjectSkill();
    expect((await kodo(['-p', 'two'])).code).toBe(0);
    expect(systemText(1)).toContain('<description>Now does another thing</description>');
    expect(systemText(1)).not.toContain('Does the gem-proj thing');
    expect(systemText(1)).toContain('<description>Does the kodo-user thing: carefully</description>');
    writeFileSync(cacheFile, '{"key": "damaged');
    const third = await kodo(['-p', 'three']);
    expect(third.stderr).toBe('');
    expect(third.code).toBe(0);
    expect(systemText(2)).toBe(systemText(1));
  });

  it('reads the skills from the files on every run, whatever a cache says, and activates one on demand', async () => {
    writeSkills();
    await pastRacyWindow();
    mock = await startGeminiMock({
      script: [
        { chunks: geminiTextReply('ok') },
        { chunks: geminiFunctionCallReply('activate_skill', { name: 'gem-proj' }) },
        { chunks: geminiTextReply('done') },
        { chunks: geminiTextReply('ok') },
      ],
    });
    expect((await kodo(['-p', 'one'])).code).toBe(0);
    // A planted whole-discovery cache (as kodo once kept) is not read: discovery reads the files.
    const planted = join(dirs.home, 'cache', 'discovery');
    mkdirSync(planted, { recursive: true });
    writeFileSync(
      join(planted, 'planted.json'),
      JSON.stringify({ found: { skills: [{ name: 'gem-proj', description: 'As the cache tells it' }] } }),
    );
    const second = await kodo(['-p', 'two']);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(systemText(1)).toContain('Does the gem-proj thing');
    expect(systemText(1)).not.toContain('As the cache tells it');
    // activate_skill, declared at start, loads its implementation when called.
    expect(JSON.stringify(lastResponse(2))).toContain('Instructions for gem-proj.');
    editProjectSkill();
    expect((await kodo(['-p', 'three'])).code).toBe(0);
    expect(systemText(3)).toContain('<description>Now does another thing</description>');
    expect(systemText(3)).not.toContain('Does the gem-proj thing');
  });

  it('kodo skills disable writes skills.disabled in the chosen scope, enable removes it', async () => {
    writeSkills();
    const disabled = await kodo(['skills', 'disable', 'kodo-user', '--scope', 'user']);
    expect(disabled.code).toBe(0);
    const list = await kodo(['skills', 'list']);
    expect(list.stdout).toContain('kodo-user [disabled] (user)');
    expect(list.stdout).toContain('claude-proj (workspace)');
    const enabled = await kodo(['skills', 'enable', 'kodo-user']);
    expect(enabled.code).toBe(0);
    expect((await kodo(['skills', 'list'])).stdout).not.toContain('[disabled]');
  });
});

describe('extensions and plugins', () => {
  const makeExtensionRepo = () => {
    const repo = join(dirs.root, 'ext-repo');
    const tiny = tinyServerEntry();
    writeFileIn(
      join(repo, 'gemini-extension.json'),
      JSON.stringify({
        name: 'demo-ext',
        version: '1.0.0',
        description: 'A demo extension',
        contextFileName: 'DEMO.md',
        mcpServers: { tiny: { command: tiny.command, args: tiny.args, cwd: '${extensionPath}' } },
      }),
    );
    writeFileIn(join(repo, 'DEMO.md'), 'Demo extension context: always say banana.');
    writeFileIn(
      join(repo, 'commands', 'hello.toml'),
      'description = "Say hello"\nprompt = "Hello from the extension, {{args}}!"\n',
    );
    writeFileIn(
      join(repo, 'skills', 'ext-skill', 'SKILL.md'),
      '---\nname: ext-skill\ndescription: The extension skill\n---\nBody.\n',
    );
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: repo,
        stdio: 'pipe',
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'init');
    return repo;
  };

  it('installs a Gemini CLI extension from a git repository, uses all it brings, and can disable it', async () => {
    const repo = makeExtensionRepo();
    const refused = await kodo(['extensions', 'install', `file://${repo}`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Installing extension "demo-ext" (1.0.0).');
    expect(refused.stderr).toContain('* tiny (local):');
    expect(refused.stderr).toContain('This extension will append info to your context using DEMO.md');
    expect(refused.stderr).toContain('Installation cancelled for "demo-ext".');
    // Nothing half-installed: no extension folder, no staging left behind.
    expect(existsSync(join(dirs.home, 'extensions'))).toBe(true);
    expect(readdirSync(join(dirs.home, 'extensions'))).toEqual([]);

    const installed = await kodo(['extensions', 'install', `file://${repo}`, '--consent']);
    expect(installed.stderr).toContain('Agent skills:');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('Extension "demo-ext" installed successfully and enabled.');
    expect(readdirSync(join(dirs.home, 'extensions'))).toEqual(['demo-ext']);
    // An extension cannot mark its servers trusted; the user allows the tool headless.
    userSettings({ tools: { allowed: ['mcp_tiny_echo'] } });

    mock = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallReply('mcp_tiny_echo', { text: 'from the extension' }) },
        { chunks: geminiTextReply('Hi.') },
        { chunks: geminiTextReply('Plain.') },
      ],
    });
    const run = await kodo(['-p', '/hello world']);
    expect(run.code).toBe(0);
    expect(userText()).toContain('Hello from the extension, world!');
    expect(systemText()).toContain('Demo extension context: always say banana.');
    expect(systemText()).toContain('<name>ext-skill</name>');
    expect(toolNames()).toContain('mcp_tiny_echo');
    expect(lastResponse(1).output).toContain('echo: from the extension');

    const disabled = await kodo(['extensions', 'disable', 'demo-ext']);
    expect(disabled.code).toBe(0);
    const after = await kodo(['-p', 'hello']);
    expect(after.code).toBe(0);
    expect(systemText(2)).not.toContain('banana');
    expect(systemText(2)).not.toContain('ext-skill');
    expect(toolNames(2)).not.toContain('mcp_tiny_echo');
    expect((await kodo(['-p', '/hello'])).code).toBe(42);
  });

  it('reads a Claude Code plugin installed under ~/.claude/plugins, and -e none turns it off', async () => {
    const plugin = join(dirs.home, '.claude', 'plugins', 'cache', 'mkt', 'myplug', '1.0.0');
    writeFileIn(
      join(plugin, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'myplug', version: '1.0.0' }),
    );
    writeFileIn(
      join(plugin, 'commands', 'greet.md'),
      '---\ndescription: Greet\n---\nGreet $ARGUMENTS from ${CLAUDE_PLUGIN_ROOT}.\n',
    );
    writeFileIn(
      join(plugin, 'skills', 'plug-skill', 'SKILL.md'),
      '---\ndescription: Plugin skill\n---\nBody.\n',
    );
    writeFileIn(
      join(dirs.home, '.claude', 'plugins', 'installed_plugins.json'),
      JSON.stringify({
        version: 2,
        plugins: { 'myplug@mkt': [{ scope: 'user', installPath: plugin, version: '1.0.0' }] },
      }),
    );
    writeFileIn(
      join(dirs.home, '.claude', 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'myplug@mkt': true } }),
    );
    mock = await startGeminiMock({
      script: [{ chunks: geminiTextReply('Hi.') }, { chunks: geminiTextReply('Hi.') }],
    });
    const run = await kodo(['-p', '/myplug:greet Ada']);
    expect(run.code).toBe(0);
    expect(userText()).toContain(`Greet Ada from ${plugin}.`);
    expect(systemText()).toContain('<name>plug-skill</name>');
    const list = await kodo(['--list-extensions']);
    expect(list.stdout).toContain('- myplug (1.0.0)');
    const none = await kodo(['-p', 'hi', '-e', 'none']);
    expect(none.code).toBe(0);
    expect(systemText(1)).not.toContain('plug-skill');
    expect((await kodo(['-p', 'hi', '-e', 'missing'])).stderr).toContain('Extension not found: missing');
  });

  it('installs a Claude Code plugin folder with kodo extensions install, then uninstalls it', async () => {
    const plugin = join(dirs.root, 'plugin-src');
    writeFileIn(
      join(plugin, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'folder-plug', version: '2.0.0' }),
    );
    writeFileIn(join(plugin, 'commands', 'hi.md'), 'Say hi to $ARGUMENTS.\n');
    writeFileIn(
      join(plugin, 'agents', 'helper.md'),
      '---\nname: helper\ndescription: Helps\ntools: Read\n---\nHelp.\n',
    );
    const installed = await kodo(['extensions', 'install', plugin, '--consent']);
    expect(installed.code).toBe(0);
    expect(installed.stderr).toContain('Commands:\n  * hi');
    expect(installed.stderr).toContain('Agents:\n  * helper');
    const list = await kodo(['extensions', 'list']);
    expect(list.stdout).toContain('✓ folder-plug (2.0.0) [Claude Code plugin]');
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('Hi.') }] });
    expect((await kodo(['-p', '/folder-plug:hi Ada'])).code).toBe(0);
    expect(userText()).toContain('Say hi to Ada.');
    expect((await kodo(['extensions', 'uninstall', 'folder-plug'])).code).toBe(0);
    expect(readdirSync(join(dirs.home, 'extensions')).filter((name) => !name.endsWith('.json'))).toEqual([]);
  });
});

describe('Claude Code plugins as their users know them', () => {
  // Shaped like Anthropic's feature-dev plugin: a command named as the plugin, and agents whose
  // tools include ones kodo has no counterpart for.
  function featureDevPlugin(): string {
    const plugin = join(dirs.root, 'feature-dev-src');
    writeFileIn(
      join(plugin, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'feature-dev', version: '1.0.0' }),
    );
    writeFileIn(
      join(plugin, 'commands', 'feature-dev.md'),
      '---\ndescription: Guided feature development\nargument-hint: Optional feature description\n---\nDevelop the feature: $ARGUMENTS\n',
    );
    writeFileIn(
      join(plugin, 'agents', 'code-explorer.md'),
      '---\nname: code-explorer\ndescription: Explores code\ntools: Glob, Grep, LS, Read, NotebookRead, WebFetch, TodoWrite, WebSearch, KillShell, BashOutput\n---\nExplore.\n',
    );
    return plugin;
  }

  it('answers /<command> when the name is unique (the prefix still works) and reports unmappable agent tools once, at install', async () => {
    const installed = await kodo(['extensions', 'install', featureDevPlugin(), '--consent']);
    expect(installed.code).toBe(0);
    expect(installed.stderr).toContain('What kodo cannot give this plugin');
    expect(installed.stderr).toContain(
      `Plugin "feature-dev" agent "feature-dev:code-explorer": tools entry "NotebookRead" dropped: kodo has no tool like Claude Code's NotebookRead.`,
    );
    expect(installed.stderr).toContain('"KillShell" dropped');
    const notes = JSON.parse(readFileSync(join(dirs.home, 'compat-notes.json'), 'utf8')) as {
      notes: { text: string }[];
    };
    expect(notes.notes.map((note) => note.text)).toHaveLength(2);
    mock = await startGeminiMock({
      script: [{ chunks: geminiTextReply('On it.') }, { chunks: geminiTextReply('On it.') }],
    });
    const run = await kodo(['-p', '/feature-dev add a login page']);
    expect(run.code).toBe(0);
    // Reported at install: runs stay quiet about it.
    expect(run.stderr).not.toContain('NotebookRead');
    expect(run.stderr).not.toContain('dropped');
    expect(userText()).toContain('Develop the feature: add a login page');
    const prefixed = await kodo(['-p', '/feature-dev:feature-dev with the prefix']);
    expect(prefixed.code).toBe(0);
    expect(userText(1)).toContain('Develop the feature: with the prefix');
  });

  it('needs the <plugin>: prefix only when another command has the name', async () => {
    const plugin = featureDevPlugin();
    writeFileIn(join(dirs.home, 'commands', 'feature-dev.md'), 'My own feature flow: $ARGUMENTS\n');
    expect((await kodo(['extensions', 'install', plugin, '--consent'])).code).toBe(0);
    mock = await startGeminiMock({
      script: [{ chunks: geminiTextReply('Mine.') }, { chunks: geminiTextReply('Theirs.') }],
    });
    expect((await kodo(['-p', '/feature-dev x'])).code).toBe(0);
    expect(userText()).toContain('My own feature flow: x');
    expect((await kodo(['-p', '/feature-dev:feature-dev y'])).code).toBe(0);
    expect(userText(1)).toContain('Develop the feature: y');
  });

  it('reports a plugin installed by Claude Code on the first run that finds it, then never again', async () => {
    const plugin = featureDevPlugin();
    writeFileIn(
      join(dirs.home, '.claude', 'plugins', 'installed_plugins.json'),
      JSON.stringify({
        version: 2,
        plugins: { 'feature-dev@mkt': [{ scope: 'user', installPath: plugin, version: '1.0.0' }] },
      }),
    );
    writeFileIn(
      join(dirs.home, '.claude', 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'feature-dev@mkt': true } }),
    );
    mock = await startGeminiMock({
      script: [{ chunks: geminiTextReply('One.') }, { chunks: geminiTextReply('Two.') }],
    });
    const first = await kodo(['-p', 'hi']);
    expect(first.code).toBe(0);
    expect(first.stderr.match(/dropped: kodo has no tool like/g)).toHaveLength(2);
    const second = await kodo(['-p', 'hi']);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('dropped');
    // kodo doctor still lists each, once (known from before and found again now).
    const doctor = await kodo(['doctor']);
    expect(doctor.stdout).toContain('What kodo cannot give plugins');
    expect(doctor.stdout.match(/dropped: kodo has no tool like/g)).toHaveLength(2);
    expect(doctor.stdout).toContain(
      'Plugin "feature-dev" agent "feature-dev:code-explorer": tools entry "NotebookRead" dropped',
    );
    const json = JSON.parse((await kodo(['doctor', '--json'])).stdout) as { found: { notes: string[] } };
    expect(json.found.notes).toHaveLength(2);
    expect(json.found.notes.join('\n')).toContain('"KillShell" dropped');
  });
});

describe('agent files', () => {
  it('offers a Claude Code agent file to invoke_agent; the folder’s own are left out when untrusted', async () => {
    writeFileIn(
      join(dirs.workspace, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews diffs for bugs\ntools: Read, Grep\ncolor: blue\n---\nYou review.\n',
    );
    writeFileIn(
      join(dirs.home, '.gemini', 'agents', 'planner.md'),
      '---\nname: planner\ndescription: Plans work\n---\nPlan.\n',
    );
    userSettings({ security: { folderTrust: { untrustedHeadless: 'restricted' } } });
    mock = await startGeminiMock({
      script: [
        { chunks: geminiTextReply('ok') },
        { chunks: geminiTextReply('ok') },
        { chunks: geminiTextReply('ok') },
      ],
    });
    // A project agent file nobody acknowledged yet is held back headless (fail closed).
    const first = await kodo(['-p', 'hi']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('Project agent "reviewer"');
    expect(first.stderr).toContain('kodo agents acknowledge');
    expect(systemText()).not.toContain('reviewer');
    expect(systemText()).toContain('planner');
    const ack = await kodo(['agents', 'acknowledge']);
    expect(ack.stdout).toContain('Acknowledged reviewer (.claude/agents/reviewer.md).');
    const run = await kodo(['-p', 'hi']);
    expect(run.stderr).toBe('');
    expect(toolNames(1)).toContain('invoke_agent');
    expect(systemText(1)).toContain('reviewer');
    expect(systemText(1)).toContain('Reviews diffs for bugs');
    expect(systemText(1)).toContain('planner');
    const untrusted = await kodo(['-p', 'hi'], { KODO_TRUST_WORKSPACE: 'false' });
    expect(untrusted.code).toBe(0);
    expect(systemText(2)).not.toContain('reviewer');
    expect(systemText(2)).toContain('planner');
  });
});

describe('an untrusted folder', () => {
  it('loads none of the project’s commands, skills or agents (user ones still load)', async () => {
    writeFileIn(join(dirs.workspace, '.gemini', 'commands', 'proj.toml'), 'prompt = "project command"\n');
    writeFileIn(join(dirs.workspace, '.claude', 'commands', 'proj2.md'), 'project command two\n');
    writeFileIn(
      join(dirs.workspace, '.kodo', 'skills', 'proj-skill', 'SKILL.md'),
      '---\nname: proj-skill\ndescription: project skill\n---\nx\n',
    );
    writeFileIn(
      join(dirs.workspace, '.agents', 'skills', 'proj-skill2', 'SKILL.md'),
      '---\nname: proj-skill2\ndescription: project skill\n---\nx\n',
    );
    writeFileIn(
      join(dirs.home, '.gemini', 'skills', 'user-skill', 'SKILL.md'),
      '---\nname: user-skill\ndescription: user skill\n---\nx\n',
    );
    userSettings({ security: { folderTrust: { untrustedHeadless: 'restricted' } } });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('ok') }] });
    const untrusted = { KODO_TRUST_WORKSPACE: 'false' };
    for (const command of ['/proj', '/proj2']) {
      const run = await kodo(['-p', command], untrusted);
      expect(run.code).toBe(42);
      expect(run.stderr).toContain(`Unknown command: ${command}`);
    }
    const run = await kodo(['-p', 'hi'], untrusted);
    expect(run.code).toBe(0);
    expect(systemText()).toContain('<name>user-skill</name>');
    expect(systemText()).not.toContain('proj-skill');
  });
});
