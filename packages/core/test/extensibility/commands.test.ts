import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type CustomCommand, qualifiedCommandName } from '../../src/commands/definition';
import { discoverCommands } from '../../src/commands/discover';
import {
  CommandExpansionError,
  expandCommand,
  splitShellWords,
  type TemplateServices,
} from '../../src/commands/expand';
import { commandDirs } from '../../src/commands/locations';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

describe('command discovery', () => {
  it('names commands by folder, renames cross-scope clashes, prefixes plugin commands only on a clash', async () => {
    ws = createTempWorkspace({
      'home/.gemini/commands/git/commit.toml': 'description = "user commit"\nprompt = "c"',
      'home/.gemini/commands/sync.toml': 'prompt = "user sync"',
      'home/.gemini/commands/broken.toml': 'prompt = ',
      'project/.claude/commands/sync.md': 'project sync',
      'project/.gemini/commands/help.toml': 'prompt = "shadowing a built-in"',
      'ext/commands/deploy.toml': 'prompt = "d"',
      'plug/commands/review.md': '---\ndescription: Review\n---\nr',
      'plug/commands/sync.md': 'plugin sync',
      'plug/commands/help.md': 'plugin help',
    });
    const dirs = commandDirs({
      cwd: `${ws.root}/project`,
      env: { HOME: `${ws.root}/home`, GEMINI_CLI_HOME: `${ws.root}/home`, KODO_HOME: `${ws.root}/kodo` },
      trusted: true,
      extensions: [
        { name: 'gcp', dir: `${ws.root}/ext/commands`, root: `${ws.root}/ext`, kind: 'gemini' },
        { name: 'plug', dir: `${ws.root}/plug/commands`, root: `${ws.root}/plug`, kind: 'claude-plugin' },
      ],
    });
    const found = await discoverCommands(dirs, { reserved: ['help'] });
    const byName = Object.fromEntries(found.commands.map((command) => [command.name, command]));
    expect(Object.keys(byName).sort()).toEqual([
      'deploy',
      'git:commit',
      'plug:help',
      'plug:sync',
      'review',
      'user.sync',
      'workspace.help',
      'workspace.sync',
    ]);
    expect(byName['git:commit']?.description).toBe('user commit');
    expect(byName.deploy?.description).toBe('[gcp] Custom command from deploy.toml');
    // Unique: the plain name, as Claude Code users type it; `/plug:review` still answers.
    expect(byName.review?.description).toBe('[plug] Review');
    expect(qualifiedCommandName(byName.review!)).toBe('plug:review');
    expect(qualifiedCommandName(byName.deploy!)).toBeUndefined();
    expect(found.warnings.join('\n')).toContain('broken.toml');
  });

  it('lets a user command keep its name and prefixes both of two plugins that share one', async () => {
    ws = createTempWorkspace({
      'home/.claude/commands/review.md': 'mine',
      'one/commands/review.md': 'one',
      'one/commands/feature-dev.md': 'feature',
      'two/commands/review.md': 'two',
    });
    const dirs = commandDirs({
      cwd: `${ws.root}/project`,
      env: { HOME: `${ws.root}/home`, KODO_HOME: `${ws.root}/kodo` },
      trusted: true,
      extensions: [
        { name: 'one', dir: `${ws.root}/one/commands`, root: `${ws.root}/one`, kind: 'claude-plugin' },
        { name: 'two', dir: `${ws.root}/two/commands`, root: `${ws.root}/two`, kind: 'claude-plugin' },
      ],
    });
    const found = await discoverCommands(dirs);
    expect(found.commands.map((command) => command.name).sort()).toEqual([
      'feature-dev',
      'one:review',
      'review',
      'two:review',
    ]);
    expect(found.commands.find((command) => command.name === 'review')?.scope).toBe('user');
  });

  it('reads no project commands in an untrusted folder', () => {
    const dirs = commandDirs({ cwd: '/p', env: { HOME: '/h', KODO_HOME: '/k' }, trusted: false });
    expect(dirs.every((dir) => !dir.dir.startsWith('/p'))).toBe(true);
  });
});

const command = (over: Partial<CustomCommand>): CustomCommand => ({
  name: 'c',
  baseName: 'c',
  description: '',
  format: 'toml',
  template: '',
  path: '/c.toml',
  scope: 'user',
  ...over,
});

function fakeServices(log: string[]): TemplateServices {
  return {
    async runShell(cmd) {
      log.push(cmd);
      return cmd.includes('fail') ? { output: 'oops', exitCode: 3 } : { output: `ran(${cmd})` };
    },
    async readPath(path) {
      if (path === 'missing') throw new CommandExpansionError('not found');
      return [{ text: `<${path}>` }];
    },
  };
}
const text = (parts: { text?: string }[]) => parts.map((part) => part.text ?? '').join('');
const signal = new AbortController().signal;

describe('TOML templates', () => {
  it('substitutes {{args}} raw outside !{…} and shell-quoted inside', async () => {
    const log: string[] = [];
    const out = await expandCommand(
      command({ template: 'A {{args}} !{echo {{args}}} @{f.txt}' }),
      `x'; rm -rf ~`,
      fakeServices(log),
      signal,
    );
    expect(log).toEqual([`echo 'x'\\''; rm -rf ~'`]);
    expect(text(out.parts)).toBe(`A x'; rm -rf ~ ran(echo 'x'\\''; rm -rf ~') <f.txt>`);
  });

  it('appends the typed command line when there is no {{args}}; sends the prompt as is without arguments', async () => {
    const services = fakeServices([]);
    expect(
      text(
        (await expandCommand(command({ name: 'git:commit', template: 'P' }), 'now', services, signal)).parts,
      ),
    ).toBe('P\n\n/git:commit now');
    expect(text((await expandCommand(command({ template: 'P' }), '', services, signal)).parts)).toBe('P');
  });

  it('reports a failing command after its output, and refuses unbalanced braces', async () => {
    const out = await expandCommand(command({ template: '!{fail now}' }), '', fakeServices([]), signal);
    expect(text(out.parts)).toBe("oops\n[Shell command 'fail now' exited with code 3]");
    await expect(
      expandCommand(command({ template: '!{echo {oops}' }), '', fakeServices([]), signal),
    ).rejects.toThrow(/Unbalanced braces/);
    await expect(
      expandCommand(command({ template: '@{missing}' }), '', fakeServices([]), signal),
    ).rejects.toThrow(CommandExpansionError);
  });
});

describe('Markdown templates', () => {
  it('fills $ARGUMENTS, $ARGUMENTS[N] and 0-based $N; keeps an unmatched $N; runs !`cmd`', async () => {
    const log: string[] = [];
    const out = await expandCommand(
      command({
        format: 'markdown',
        template: 'all=$ARGUMENTS first=$0 second=$ARGUMENTS[1] third=$2 none=$7 !`git status` a!`x`',
      }),
      'Foo "two words" third',
      fakeServices(log),
      signal,
    );
    expect(text(out.parts)).toBe(
      'all=Foo "two words" third first=Foo second=two words third=third none=$7 ran(git status) a!`x`',
    );
    expect(log).toEqual(['git status']);
  });

  it('appends ARGUMENTS: when there is no placeholder, attaches @files before the prompt, ignores unreadable ones', async () => {
    const out = await expandCommand(
      command({ format: 'markdown', template: 'See @a.md and @missing' }),
      'x y',
      fakeServices([]),
      signal,
    );
    expect(text(out.parts)).toBe('Content from @a.md:\n<a.md>\n\nSee @a.md and @missing\n\nARGUMENTS: x y');
  });

  it('splits words like a shell', () => {
    expect(splitShellWords(`a "b c" 'd e' f\\ g ""`)).toEqual(['a', 'b c', 'd e', 'f g', '']);
  });
});
