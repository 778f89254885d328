/**
 * Terminal escape sequences (colours, cursor moves, window titles) mean nothing to the model and
 * waste its context, so command output is stripped of them before it is kept. The person's live
 * view still gets the raw bytes.
 */

/** CSI, OSC (BEL- or ST-terminated) and two-character escape sequences. */
const SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
/** The start of a CSI or two-character sequence that has not ended yet. */
const OPEN_SEQUENCE = /^\x1b(?:\[[0-?]*[ -/]*)?$/;
/** An OSC sequence (e.g. a hyperlink or a title) still waiting for its terminator. */
const OPEN_OSC = /^\x1b\][^\x07\x1b]*\x1b?$/;
/** Longer "sequences" are not held back: real ones are short, and holding must stay bounded. */
const MAX_HELD_CHARS = 4096;

export function stripAnsi(text: string): string {
  return text.replace(SEQUENCE, '');
}

/**
 * Strips escape sequences from a stream that arrives in chunks. A sequence cut in two by a chunk
 * boundary is held back until the next chunk completes it, so no half sequence leaks through.
 */
export class AnsiStripper {
  private held = '';

  push(chunk: string): string {
    const text = this.held + chunk;
    const cut = openSequenceStart(text);
    this.held = text.slice(cut);
    return stripAnsi(text.slice(0, cut));
  }

  /** Whatever is still held back (the stream ended inside a sequence). */
  end(): string {
    const rest = stripAnsi(this.held);
    this.held = '';
    return rest;
  }
}

/** Where an unfinished escape sequence at the end of `text` starts (text.length when none). */
function openSequenceStart(text: string): number {
  const osc = text.lastIndexOf('\x1b]');
  if (osc >= 0 && text.length - osc <= MAX_HELD_CHARS && OPEN_OSC.test(text.slice(osc))) return osc;
  const esc = text.lastIndexOf('\x1b');
  if (esc >= 0 && text.length - esc <= MAX_HELD_CHARS && OPEN_SEQUENCE.test(text.slice(esc))) {
    return esc;
  }
  return text.length;
}
