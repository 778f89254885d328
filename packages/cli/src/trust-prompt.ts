import { basename, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { TrustLevel } from '@kodo/core/engine';

/**
 * The first-run trust question, asked on the terminal before the interactive UI starts. Plain
 * text on purpose: it runs before Ink and React load, and a folder that is not trusted must not
 * get to load anything first. (The UI may offer the same choices later through `/permissions`.)
 */
export async function askTrustOnTerminal(
  folder: string,
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<TrustLevel | undefined> {
  const parent = dirname(folder);
  streams.output.write(
    [
      '',
      'Do you trust the files in this folder?',
      `  ${folder}`,
      '',
      'Trusting a folder lets kodo use its settings, hooks, MCP servers, policies and custom commands,',
      'which can run code on your machine. Only trust folders whose contents you know.',
      '',
      `  1. Trust folder (${basename(folder) || folder})`,
      `  2. Trust parent folder (${basename(parent) || parent})`,
      "  3. Don't trust",
      '',
    ].join('\n'),
  );
  const rl = createInterface({ input: streams.input, output: streams.output, terminal: false });
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await question(rl, 'Choose 1, 2 or 3: ');
      if (answer === undefined) return undefined;
      const level = CHOICES[answer.trim()];
      if (level) return level;
    }
    return undefined;
  } finally {
    rl.close();
  }
}

const CHOICES: Record<string, TrustLevel> = { '1': 'TRUST_FOLDER', '2': 'TRUST_PARENT', '3': 'DO_NOT_TRUST' };

/** One line of input, or undefined when the input ended (Ctrl+D) or was interrupted. */
function question(rl: ReturnType<typeof createInterface>, prompt: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const onClose = () => resolve(undefined);
    rl.once('close', onClose);
    rl.question(prompt, (answer) => {
      rl.off('close', onClose);
      resolve(answer);
    });
  });
}
