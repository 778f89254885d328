import xtermModule from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { compactStyles } from '../../src/ui/terminal/compact-styles';

const xterm = (xtermModule as unknown as { default?: typeof xtermModule }).default ?? xtermModule;

/** Every cell of the first row as a terminal draws it: character and every attribute. */
async function cells(row: string): Promise<string[]> {
  const terminal = new xterm.Terminal({ cols: 80, rows: 2, allowProposedApi: true });
  await new Promise<void>((resolve) => terminal.write(row, resolve));
  const line = terminal.buffer.active.getLine(0)!;
  const out: string[] = [];
  for (let x = 0; x < 80; x += 1) {
    const cell = line.getCell(x)!;
    const char = cell.getChars() || ' ';
    // A space shows background, inverse, underline and strike-through, nothing else.
    const visible =
      char === ' '
        ? [cell.getBgColor(), cell.isInverse(), cell.isUnderline(), cell.isStrikethrough()]
        : [
            cell.getFgColor(),
            cell.getFgColorMode(),
            cell.isBold(),
            cell.isDim(),
            cell.isItalic(),
            cell.getBgColor(),
            cell.isInverse(),
            cell.isUnderline(),
          ];
    out.push(`${char}:${visible.join(',')}`);
  }
  return out;
}

const E = '\u001b[';
const ROWS = [
  // Highlighted code as Ink writes it: each token opens and closes its colour.
  `    ${E}38;5;176mexport${E}39m ${E}38;5;176mfunction${E}39m ${E}38;5;111mstep3${E}39m(${E}38;5;180minput${E}39m${E}38;5;180m: ${E}39m${E}38;5;186mnumber${E}39m) {`,
  // A coloured gutter of spaces, a bullet, italics and inline code.
  `${E}38;5;147m  ${E}39m ${E}38;5;147m•${E}39m item: ${E}3mcheck${E}23m ${E}3mthis${E}23m ${E}38;5;181mvalue0${E}39m`,
  // Bold then dim across a space: not the same style, must stay as it is.
  `${E}1mbold${E}22m ${E}2mdim${E}22m and ${E}1mone${E}22m ${E}1mtwo${E}22m`,
  // Table separators, a basic colour and a bright one.
  `  step${E}90m │ ${E}39minput${E}90m │ ${E}39m${E}31mred${E}39m ${E}31mred${E}39m ${E}32mgreen${E}39m`,
  // Background and inverse show on spaces: never merged or dropped.
  `${E}44m  ${E}49m ${E}44mx${E}49m ${E}7m ${E}27m cursor ${E}4munder${E}24m ${E}4mline${E}24m`,
  // A colour reopened after a different one was closed.
  `${E}31ma${E}39m ${E}32mb${E}39m ${E}31mc${E}39m`,
];

describe('compactStyles', () => {
  it.each(ROWS)('draws every cell as before: %#', async (row) => {
    expect(await cells(compactStyles(row))).toEqual(await cells(row));
  });

  it('saves the repeated codes of highlighted code and coloured spaces', () => {
    const [code, list] = ROWS as [string, string];
    expect(compactStyles(code)).toContain(`${E}38;5;176mexport function${E}39m`);
    expect(compactStyles(code).length).toBeLessThan(code.length - 20);
    expect(compactStyles(list).startsWith('   ')).toBe(true);
  });

  it('leaves rows without styles untouched', () => {
    expect(compactStyles('plain text  ')).toBe('plain text  ');
  });
});
