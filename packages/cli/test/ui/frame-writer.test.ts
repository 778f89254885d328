import xtermModule from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { createFrameWriter, type FrameLog } from '../../src/ui/terminal/frame-writer';

/**
 * The frame writer drives a real terminal emulator (xterm's headless one) here: whatever it
 * sends, the screen plus its scrollback must read exactly like the final text in order followed
 * by the live region, as if every frame had been drawn in full, and it must send less than that.
 */
const xterm = (xtermModule as unknown as { default?: typeof xtermModule }).default ?? xtermModule;

const COLUMNS = 40;
const ROWS = 12;

class Screen {
  readonly terminal = new xterm.Terminal({
    cols: COLUMNS,
    rows: ROWS,
    scrollback: 10_000,
    allowProposedApi: true,
    // A pty's output processing turns "\n" into "\r\n" (ONLCR), as Ink expects.
    convertEol: true,
  });
  bytes = '';
  readonly rows = ROWS;
  write(data: string): boolean {
    this.bytes += data;
    this.terminal.write(data);
    return true;
  }
  /** Every row of the scrollback and the screen, trailing blank rows dropped. */
  async text(): Promise<string[]> {
    await new Promise<void>((resolve) => this.terminal.write('', resolve));
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < buffer.length; row += 1) lines.push(buffer.getLine(row)!.translateToString(true));
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines;
  }
}

/** What the terminal must show: the final text, then the region's rows. */
function expected(finalText: string[], frame: string): string[] {
  const region = frame.endsWith('\n') ? frame.slice(0, -1).split('\n') : frame.split('\n');
  const all = [...finalText, ...region];
  while (all.length > 0 && all.at(-1) === '') all.pop();
  return all;
}

function regionOf(live: string[], typed: string, seconds: number): string {
  const box = `╭${'─'.repeat(COLUMNS - 2)}╮`;
  const input = `${`│ > ${typed}`.padEnd(COLUMNS - 1, ' ')}│`;
  const bottom = `╰${'─'.repeat(COLUMNS - 2)}╯`;
  return `${[...live, '', `⠋ Working… (${seconds}s)`, box, input, bottom, 'model · footer'].join('\n')}\n`;
}

describe('frame writer', () => {
  let screen: Screen;
  let log: FrameLog;
  const setUp = () => {
    screen = new Screen();
    log = createFrameWriter(screen);
  };

  it('keeps final text and the live region exactly as a full redraw would, while sending less', async () => {
    setUp();
    const finalText: string[] = [];
    let fullRedrawBytes = 0;
    let frame = regionOf([], '', 0);
    log(frame);
    // A streamed answer: the live part grows and shrinks, finished lines move to the final text
    // (sometimes more at once than the screen holds), keys are typed meanwhile.
    let typed = '';
    for (let step = 1; step <= 60; step += 1) {
      const liveRows = step % 4;
      const live = Array.from(
        { length: liveRows },
        (_, row) => `live ${step}.${row} ${'x'.repeat(step % 30)}`,
      );
      if (step % 3 === 0) typed += String.fromCharCode(97 + (step % 26));
      const next = regionOf(live, typed, step / 10);
      if (step % 5 === 0) {
        const batch = step % 20 === 0 ? 25 : 1 + (step % 4);
        // Some rows exactly as wide as the terminal: writing the last column must not lose it.
        const lines = Array.from({ length: batch }, (_, row) =>
          row === 0 ? `final ${step}`.padEnd(COLUMNS, '#') : `final ${step}.${row}`,
        );
        finalText.push(...lines);
        log.insertStatic(`${lines.join('\n')}\n`, next);
        fullRedrawBytes += Buffer.byteLength(lines.join('\n')) + 2 * Buffer.byteLength(next);
      } else {
        log(next);
        fullRedrawBytes += 2 * Buffer.byteLength(next);
      }
      frame = next;
      expect(await screen.text()).toEqual(expected(finalText, frame));
    }
    expect(Buffer.byteLength(screen.bytes)).toBeLessThan(fullRedrawBytes / 3);
  });

  it('sends nothing for an unchanged frame and only the changed row for a keystroke', async () => {
    setUp();
    log(regionOf(['answer so far'], '', 1));
    const before = screen.bytes.length;
    expect(log(regionOf(['answer so far'], '', 1))).toBe(false);
    expect(screen.bytes.length).toBe(before);
    log(regionOf(['answer so far'], 'k', 1));
    const sent = screen.bytes.slice(before);
    expect(sent).toContain('│ > k');
    expect(sent).not.toContain('answer so far');
    expect(sent).not.toContain('╭');
    expect(sent).not.toContain('footer');
    expect(await screen.text()).toEqual(expected([], regionOf(['answer so far'], 'k', 1)));
  });

  it('moves the rows below a growing or shrinking part instead of writing them again', async () => {
    setUp();
    log(regionOf(['one'], '', 1));
    const before = screen.bytes.length;
    log(regionOf(['one', 'two', 'three'], '', 1));
    log(regionOf(['one'], '', 1));
    expect(screen.bytes.slice(before)).not.toContain('footer');
    expect(await screen.text()).toEqual(expected([], regionOf(['one'], '', 1)));
  });

  it('draws in full after the screen was cleared by someone else, and after clear()', async () => {
    setUp();
    log.insertStatic('banner\n', regionOf([], '', 0));
    log.insertStatic('first answer\n', regionOf([], '', 1));
    screen.write('\u001b[2J\u001b[3J\u001b[H');
    log.forget();
    log.insertStatic('banner\nfirst answer\n', regionOf([], '', 1));
    expect(await screen.text()).toEqual(expected(['banner', 'first answer'], regionOf([], '', 1)));
    log.clear();
    expect(await screen.text()).toEqual(['banner', 'first answer']);
    log(regionOf(['again'], 'x', 2));
    expect(await screen.text()).toEqual(expected(['banner', 'first answer'], regionOf(['again'], 'x', 2)));
  });

  it('hides the cursor while drawing and shows it again when done', () => {
    setUp();
    log(regionOf([], '', 0));
    expect(screen.bytes).toContain('\u001b[?25l');
    log.done();
    expect(screen.bytes.endsWith('\u001b[?25h')).toBe(true);
  });
});
