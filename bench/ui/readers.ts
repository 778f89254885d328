// How the UI benchmark reads what an agent shows: kodo from the bytes its terminal receives (as the
// benchmark always has), a peer from a headless xterm's screen (its renderer writes only the cells
// that changed, so its text is seldom contiguous in the bytes).
import { ANSWER_LINE, END_MARKER, FIRST_MARKER } from './answer';
import type { Terminal } from './pty-terminal';

// The placeholder of kodo's empty prompt; its first letter is drawn as the cursor, so match the rest.
export const READY = 'ype your message';

/** How a run reads what an agent shows. */
export interface Reader {
  ready(terminal: Terminal): Promise<{ at: number }>;
  typed(terminal: Terminal, text: string): Promise<unknown>;
  firstToken(terminal: Terminal, from: number): Promise<{ at: number; offset: number }>;
  keyEcho(terminal: Terminal, typed: string, from: number): Promise<{ at: number }>;
  end(terminal: Terminal, from: number): Promise<unknown>;
  keysArrived(terminal: Terminal, typed: string, from: number): boolean;
}

/** kodo redraws its input line whole: the typed text, then the inverse-video cursor. */
export const kodoReader: Reader = {
  ready: (terminal) => terminal.waitFor(READY),
  typed: (terminal, text) => terminal.waitFor(text),
  firstToken: (terminal, from) => terminal.waitFor(FIRST_MARKER, from, 30_000),
  keyEcho: (terminal, typed, from) => terminal.waitFor(`${typed}\u001b[7m`, from, 60_000),
  end: (terminal, from) => terminal.waitFor(END_MARKER, from, 60_000),
  keysArrived: (terminal, typed, from) => terminal.output().lastIndexOf(typed) > from,
};

/** A peer's emulated screen; its input is the last row starting with `promptMark`. */
export function screenReader(promptMark: string): Reader {
  const input = (rows: string[]) => {
    const row = rows.findLast((line) => line.trimStart().startsWith(promptMark));
    return row?.trimStart().slice(promptMark.length).trim();
  };
  const inputEndsWith = (text: string) => (rows: string[]) => input(rows)?.endsWith(text) === true;
  const shows = (text: string) => (rows: string[]) => rows.some((line) => line.includes(text));
  return {
    ready: (terminal) =>
      terminal.waitForScreen((rows) => input(rows) !== undefined, `the ${promptMark} prompt`),
    typed: (terminal, text) => terminal.waitForScreen(inputEndsWith(text), `${JSON.stringify(text)} typed`),
    // Any line of the answer: a full-screen renderer that draws late shows only the answer's tail.
    firstToken: (terminal) =>
      terminal.waitForScreen((rows) => rows.some((line) => ANSWER_LINE.test(line)), 'the answer', 30_000),
    keyEcho: (terminal, typed) => terminal.waitForScreen(inputEndsWith(typed), `${typed} typed`, 60_000),
    end: (terminal) => terminal.waitForScreen(shows(END_MARKER), END_MARKER, 60_000),
    keysArrived: (terminal, typed) => inputEndsWith(typed)(terminal.screen()),
  };
}
