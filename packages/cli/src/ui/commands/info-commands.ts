import { arch, platform, release } from 'node:os';
import { compactNumber, formatDuration } from '../format';
import { ACTIONS, type KeyAction, Keymap } from '../keys/keymap';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

export const KEYBOARD_HELP = [
  '| Key | Action |',
  '| --- | --- |',
  '| Enter | send; while the model works, steer: the line joins the turn after the current step |',
  '| Tab (while the model works) | queue the line for after the turn |',
  '| Alt+Enter, Ctrl+J, `\\` then Enter | new line |',
  '| ↑ / ↓ | earlier prompts (also across sessions) |',
  '| Ctrl+R | search earlier prompts |',
  '| Tab | accept a completion (`/command`, `@path`) |',
  '| Esc | drop the last queued line, else cancel the running request |',
  '| Ctrl+C | cancel; twice to exit |',
  '| Ctrl+D | exit (on empty input) |',
  '| Shift+Tab | cycle approval mode |',
  '| Ctrl+Y | YOLO mode on / off |',
  '| Ctrl+T | show or hide thoughts |',
  '| Ctrl+L | redraw the screen |',
  '| Ctrl+V | paste an image from the clipboard |',
  '',
  'The defaults; `~/.kodo/keybindings.json` rebinds them (docs/habits.md#key-bindings).',
].join('\n');

export function helpCommand(all: () => SlashCommand[]): SlashCommand {
  return terminalBuiltin('help', {
    whileBusy: true,
    run({ addItem, keymap }) {
      const commands = all()
        .map((command) => {
          const aliases = command.aliases?.length
            ? ` (${command.aliases.map((a) => `/${a}`).join(', ')})`
            : '';
          return `- \`/${command.name}${argumentsShown(command)}\`${aliases}: ${command.description}`;
        })
        .join('\n');
      addItem({
        kind: 'panel',
        title: 'Help',
        body: [
          'Type a request and press Enter. `@path` attaches a file or directory; `!command` runs a shell command (approval applies).',
          'While the model works, Enter steers it (your line goes in after the current tool results, before its next request; if the turn ends first, it is the next prompt) and Tab queues the line for after the turn.',
          '',
          '**Commands**',
          '',
          commands,
          '',
          '**Keys**',
          '',
          KEYBOARD_HELP,
          ...reboundKeys(keymap),
        ].join('\n'),
      });
    },
  });
}

/** What `/help` shows after a name: the declared argument hint, else the completion words. */
function argumentsShown(command: SlashCommand): string {
  if (command.argumentHint) return ` [${command.argumentHint}]`;
  return command.subcommands?.length ? ` ${command.subcommands.map((sub) => sub.name).join('|')}` : '';
}

/** The actions `~/.kodo/keybindings.json` moved, with the keys they have now. */
function reboundKeys(keymap: Keymap | undefined): string[] {
  if (!keymap) return [];
  const defaults = Keymap.defaults();
  const changed = (Object.keys(ACTIONS) as KeyAction[]).filter(
    (action) => keymap.describe(action) !== defaults.describe(action),
  );
  if (changed.length === 0) return [];
  return [
    '',
    '**Your key bindings** (keybindings.json)',
    '',
    '| Action | Keys | Default |',
    '| --- | --- | --- |',
    ...changed.map(
      (action) =>
        `| ${ACTIONS[action].help} (\`${action}\`) | ${keymap.describe(action)} | ${defaults.describe(action)} |`,
    ),
  ];
}

export const aboutCommand: SlashCommand = terminalBuiltin('about', {
  whileBusy: true,
  run({ addItem, version, session }) {
    addItem({
      kind: 'panel',
      title: 'About kodo',
      body: [
        `- **kodo** ${version}`,
        `- **Node.js** ${process.versions.node}`,
        `- **OS** ${platform()} ${release()} (${arch()})`,
        `- **Model** ${session.model}`,
        `- **Session** ${session.id}`,
      ].join('\n'),
    });
  },
});

export const toolsCommand: SlashCommand = terminalBuiltin('tools', {
  subcommands: [{ name: 'desc', description: 'with descriptions' }],
  whileBusy: true,
  run({ addItem, tools, args }) {
    const withDescriptions = args === 'desc' || args === 'descriptions';
    const lines = tools.list().map((tool) => {
      const head = `- **${tool.displayName}** (\`${tool.name}\`)`;
      if (!withDescriptions) return head;
      return `${head}: ${tool.description.split('\n')[0]}`;
    });
    addItem({ kind: 'panel', title: `Tools (${lines.length})`, body: lines.join('\n') || 'No tools.' });
  },
});

export const agentsCommand: SlashCommand = terminalBuiltin('agents', {
  subcommands: [{ name: 'list', description: 'names, descriptions and where each is defined' }],
  whileBusy: true,
  run({ addItem, session }) {
    const lines = session
      .listAgents()
      .map((entry) => `- **${entry.name}** (${entry.source}): ${entry.description}`);
    addItem({ kind: 'panel', title: `Agents (${lines.length})`, body: lines.join('\n') || 'No agents.' });
  },
});

export const statsCommand: SlashCommand = terminalBuiltin('stats', {
  whileBusy: true,
  run({ addItem, session }) {
    const snapshot = session.statsSnapshot();
    const totals = session.statsTotals();
    const cost = session.estimatedCost();
    const lines = [
      `- **Requests** ${totals.requests} (${totals.errors} failed), ${formatDuration(totals.latencyMs)} waiting for the model`,
      `- **Tokens** ${compactNumber(totals.tokens.prompt)} in (${compactNumber(totals.tokens.cached)} cached), ${compactNumber(totals.tokens.candidates)} out, ${compactNumber(totals.tokens.thoughts)} thinking`,
      `- **Cost** ${cost === undefined ? 'unknown for this model' : `about $${cost.toFixed(4)} (list prices)`}`,
      `- **Tool calls** ${snapshot.tools.totalCalls} (${snapshot.tools.totalSuccess} ok, ${snapshot.tools.totalFail} failed)`,
      `- **Lines** +${snapshot.files.totalLinesAdded} −${snapshot.files.totalLinesRemoved}`,
    ];
    const byModel = Object.entries(snapshot.models).map(
      ([model, stats]) =>
        `| ${model} | ${stats.api.totalRequests} | ${compactNumber(stats.tokens.prompt)} | ${compactNumber(stats.tokens.candidates)} |`,
    );
    const byTool = Object.entries(snapshot.tools.byName).map(
      ([name, stats]) =>
        `| ${name} | ${stats.count} | ${stats.success} | ${stats.fail} | ${formatDuration(stats.durationMs)} |`,
    );
    const body = [
      ...lines,
      ...(byModel.length
        ? ['', '| Model | Requests | Input | Output |', '| --- | ---: | ---: | ---: |', ...byModel]
        : []),
      ...(byTool.length
        ? ['', '| Tool | Calls | OK | Failed | Time |', '| --- | ---: | ---: | ---: | ---: |', ...byTool]
        : []),
    ];
    addItem({ kind: 'panel', title: 'Session stats', body: body.join('\n') });
  },
});

export const settingsCommand: SlashCommand = terminalBuiltin('settings', {
  whileBusy: true,
  run({ addItem, settings }) {
    const files = settings.sources.length
      ? settings.sources.map((source, index) => `${index + 1}. \`${source}\``).join('\n')
      : 'No settings file found (defaults in use).';
    addItem({
      kind: 'panel',
      title: 'Settings',
      body: [
        '**Files** (later ones win)',
        '',
        files,
        '',
        '**Merged values**',
        '',
        '```json',
        JSON.stringify(settings.merged, hideSecrets, 2),
        '```',
      ].join('\n'),
    });
  },
});

/** Values of keys named like credentials are not printed (they would land in scrollback). */
function hideSecrets(key: string, value: unknown): unknown {
  return typeof value === 'string' && /key|token|secret|password|credential/i.test(key) ? '••••••' : value;
}
