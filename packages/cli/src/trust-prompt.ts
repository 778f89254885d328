import { basename, dirname } from 'node:path';
import { createInterface, emitKeypressEvents } from 'node:readline';
import type { TrustLevel } from '@kodo/core/engine';

/**
 * The first-run trust question, asked on the terminal before the interactive UI starts. It runs
 * before Ink and React load (a folder that is not trusted must not get to load anything first),
 * so the menu is drawn by hand: arrow keys (or j/k, or the option's number) move, Enter chooses,
 * Esc or Ctrl+C leaves without deciding. Input that is not a terminal answers with a number on a
 * line. `/permissions` in the UI changes the answer later.
 */
export async function askTrustOnTerminal(
  folder: string,
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
  options: { changed?: boolean; reason?: string } = {},
): Promise<TrustLevel | undefined> {
  const parent = dirname(folder);
  const changed = options.reason
    ? [
        '',
        `kodo cannot check what this folder runs against what you trusted: ${options.reason}.`,
        'It asks at every start until that is fixed.',
      ]
    : options.changed
      ? [
          '',
          "This folder's settings, hooks, commands, skills, agents, policies or .env changed since you trusted it",
          '(.kodo/, .gemini/, .claude/, .agents/, .env, or files they name). Check what changed before trusting it again.',
        ]
      : [];
  const choices: { label: string; level: TrustLevel }[] = [
    { label: `Trust folder (${basename(folder) || folder})`, level: 'TRUST_FOLDER' },
    { label: `Trust parent folder (${basename(parent) || parent})`, level: 'TRUST_PARENT' },
    { label: "Don't trust", level: 'DO_NOT_TRUST' },
  ];
  streams.output.write(
    [
      ...changed,
      '',
      'Do you trust the files in this folder?',
      `  ${folder}`,
      '',
      'Trusting a folder lets kodo use its settings, hooks, MCP servers, policies and custom commands,',
      'which can run code on your machine. Only trust folders whose contents you know.',
      '',
      '',
    ].join('\n'),
  );
  const input = streams.input as NodeJS.ReadStream;
  if (input.isTTY && typeof input.setRawMode === 'function') return menu(choices, input, streams.output);
  return byNumber(choices, streams);
}

interface TrustOption {
  label: string;
  level: TrustLevel;
}

const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

function menu(
  options: readonly TrustOption[],
  input: NodeJS.ReadStream,
  output: NodeJS.WritableStream,
): Promise<TrustLevel | undefined> {
  let selected = 0;
  const draw = (again: boolean) => {
    // Back to the first option's line, then each line cleared and redrawn.
    if (again) output.write(`\u001b[${options.length + 1}A`);
    for (const [index, option] of options.entries()) {
      const line = `${index + 1}. ${option.label}`;
      output.write(`\u001b[2K${index === selected ? `${BOLD}› ${line}${RESET}` : `  ${line}`}\n`);
    }
    output.write('\u001b[2K(↑/↓ to move, Enter to choose)\n');
  };
  emitKeypressEvents(input);
  const wasRaw = input.isRaw;
  input.setRawMode(true);
  input.resume();
  draw(false);
  return new Promise((resolve) => {
    const finish = (level: TrustLevel | undefined) => {
      input.off('keypress', onKey);
      input.setRawMode(wasRaw);
      input.pause();
      resolve(level);
    };
    const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined) => {
      const name = key?.name;
      if (name === 'return' || name === 'enter') return finish(options[selected]!.level);
      if (name === 'escape' || (key?.ctrl && (name === 'c' || name === 'd'))) return finish(undefined);
      if (name === 'up' || name === 'k') selected = (selected + options.length - 1) % options.length;
      else if (name === 'down' || name === 'j' || name === 'tab') selected = (selected + 1) % options.length;
      else if (text && /^[1-9]$/.test(text) && Number(text) <= options.length) selected = Number(text) - 1;
      else return;
      draw(true);
    };
    input.on('keypress', onKey);
  });
}

async function byNumber(
  options: readonly TrustOption[],
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<TrustLevel | undefined> {
  streams.output.write(`${options.map((option, index) => `  ${index + 1}. ${option.label}`).join('\n')}\n\n`);
  const rl = createInterface({ input: streams.input, terminal: false });
  // The iterator buffers lines, so an answer typed ahead of the question is not lost.
  const lines = rl[Symbol.asyncIterator]();
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      streams.output.write(`Choose 1 to ${options.length}: `);
      const next = await lines.next();
      if (next.done) return undefined;
      const index = Number(String(next.value).trim()) - 1;
      const option = Number.isInteger(index) ? options[index] : undefined;
      if (option) return option.level;
    }
    return undefined;
  } finally {
    rl.close();
  }
}
