/**
 * Text for a terminal, from the model, a tool or a command: the one place that knows what a
 * terminal would act on instead of showing. Escape sequences come in a 7-bit form (ESC [, ESC ])
 * and an 8-bit one (the C1 controls U+009B CSI, U+009D OSC, …), and terminals that read C1 act
 * on both, so both are stripped, and so are the C1 controls on their own.
 */

/**
 * ECMA-48 sequences: control strings (OSC, DCS, SOS, PM, APC, up to BEL or ST), CSI (parameters,
 * intermediates, final), and ESC with intermediates and a final byte (charsets, ESC 7, ESC c).
 * A string's body stops at any other introducer, so text full of unterminated ones stays linear.
 */
const SEQUENCE =
  /(?:\u001b[\]P^_X]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u0090\u0098\u009c-\u009f]*(?:\u0007|\u001b\\|\u009c)|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b[ -/]*[0-~]/g;

/** Control characters but tab, newline and carriage return; DEL; the C1 range. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** `text` without escape sequences, in either form (the rest, control characters included, kept). */
export function stripEscapeSequences(text: string): string {
  return text.replace(SEQUENCE, '');
}

/**
 * `text` safe to print: escape sequences and control characters removed (C0 but tab, newline
 * and carriage return, DEL, and C1). Front ends shape what is left (tabs, `\r` overwrites).
 */
export function stripTerminalControls(text: string): string {
  return stripEscapeSequences(text).replace(CONTROL, '');
}

/** Starts a control string: ESC ] P ^ _ X, or their 8-bit forms. */
const STRING_START = /\u001b[\]P^_X]|[\u0090\u0098\u009d-\u009f]/g;
/** A CSI or ESC sequence that has not ended yet. */
const OPEN_SEQUENCE = /^(?:\u001b(?:\[[0-?]*[ -/]*|[ -/]*)|\u009b[0-?]*[ -/]*)$/;
/** A control string (OSC, DCS, …) still waiting for its terminator (an ESC may be half of ST). */
const OPEN_STRING =
  /^(?:\u001b[\]P^_X]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u0090\u0098\u009c-\u009f]*\u001b?$/;
/** Longer "sequences" are not held back: real ones are short, and holding must stay bounded. */
const MAX_HELD_CHARS = 4096;

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
    return stripEscapeSequences(text.slice(0, cut));
  }

  /** Whatever is still held back (the stream ended inside a sequence). */
  end(): string {
    const rest = stripEscapeSequences(this.held);
    this.held = '';
    return rest;
  }
}

/** Where an unfinished escape sequence at the end of `text` starts (text.length when none). */
function openSequenceStart(text: string): number {
  const from = Math.max(0, text.length - MAX_HELD_CHARS);
  let lastString = -1;
  STRING_START.lastIndex = from;
  for (let match = STRING_START.exec(text); match; match = STRING_START.exec(text)) lastString = match.index;
  if (lastString >= 0 && OPEN_STRING.test(text.slice(lastString))) return lastString;
  const lastEscape = Math.max(text.lastIndexOf('\u001b'), text.lastIndexOf('\u009b'));
  if (lastEscape >= from && OPEN_SEQUENCE.test(text.slice(lastEscape))) return lastEscape;
  return text.length;
}
