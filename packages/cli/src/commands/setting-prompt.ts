import { createInterface } from 'node:readline';

/**
 * Asks for one value on the terminal. A `hidden` answer (an extension's sensitive setting) is
 * not echoed: the terminal goes into raw mode and each typed character prints nothing. Ctrl-C or
 * the end of input answers undefined.
 */
export function askOnTerminal(
  question: string,
  streams: { input: NodeJS.ReadStream; output: NodeJS.WritableStream },
  options: { hidden: boolean },
): Promise<string | undefined> {
  const { input, output } = streams;
  if (!options.hidden || !input.isTTY || typeof input.setRawMode !== 'function') {
    return new Promise((resolve) => {
      const rl = createInterface({ input, output, terminal: input.isTTY === true });
      let answered = false;
      rl.question(question, (answer) => {
        answered = true;
        rl.close();
        resolve(answer);
      });
      rl.on('close', () => {
        if (!answered) resolve(undefined);
      });
    });
  }
  return new Promise((resolve) => {
    output.write(question);
    let typed = '';
    const wasRaw = input.isRaw;
    input.setRawMode(true);
    input.resume();
    const finish = (value: string | undefined) => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(typed);
        if (char === '\u0003' || char === '\u0004') return finish(undefined);
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed += char;
      }
    };
    input.on('data', onData);
  });
}

/** All of piped standard input, for `kodo extensions config <name> <setting>` in scripts. */
export async function readAllInput(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
