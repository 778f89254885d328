import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AT_DRAFT, newerEntry, olderEntry, reverseSearch } from '../../src/ui/input/history-navigation';
import { InputHistoryStore } from '../../src/ui/input/input-history-store';
import { expandPastes, pastePlaceholder, shouldCollapsePaste } from '../../src/ui/input/paste';
import * as edit from '../../src/ui/input/text-buffer';

describe('text buffer', () => {
  it('inserts, deletes and moves by character, word and line', () => {
    let buffer = edit.insert(edit.EMPTY_BUFFER, 'hello world');
    buffer = edit.wordLeft(buffer);
    expect(buffer.cursor).toBe(6);
    buffer = edit.insert(buffer, 'big ');
    expect(buffer.text).toBe('hello big world');
    buffer = edit.deleteWordLeft(buffer);
    expect(buffer.text).toBe('hello world');
    buffer = edit.backspace(buffer);
    expect(buffer).toEqual({ text: 'helloworld', cursor: 5 });
    buffer = edit.deleteForward(buffer);
    expect(buffer).toEqual({ text: 'helloorld', cursor: 5 });
    expect(edit.lineStart(buffer).cursor).toBe(0);
    expect(edit.lineEnd(buffer).cursor).toBe(buffer.text.length);
  });

  it('steps over surrogate pairs as one character', () => {
    const buffer = edit.bufferOf('a😀');
    expect(edit.backspace(buffer)).toEqual({ text: 'a', cursor: 1 });
    expect(edit.moveLeft(buffer).cursor).toBe(1);
  });

  it('moves between lines keeping the column, and reports the edges', () => {
    const buffer = { text: 'first line\nab\nthird', cursor: 8 };
    const down = edit.moveDown(buffer)!;
    expect(edit.cursorPosition(down)).toEqual({ row: 1, column: 2 });
    expect(edit.cursorPosition(edit.moveDown(down)!)).toEqual({ row: 2, column: 2 });
    expect(edit.moveUp(buffer)).toBeUndefined();
    expect(edit.moveDown(edit.bufferOf(buffer.text))).toBeUndefined();
  });

  it('kills to the line start and end (Ctrl+U, Ctrl+K)', () => {
    const buffer = { text: 'one\ntwo three\nfour', cursor: 8 };
    expect(edit.killToLineStart(buffer)).toEqual({ text: 'one\nthree\nfour', cursor: 4 });
    expect(edit.killToLineEnd(buffer)).toEqual({ text: 'one\ntwo \nfour', cursor: 8 });
  });

  it('replaces the completed word before the cursor', () => {
    const buffer = edit.bufferOf('look at @sr');
    expect(edit.replaceBeforeCursor(buffer, 2, 'src/app.ts ')).toEqual({
      text: 'look at @src/app.ts ',
      cursor: 20,
    });
  });
});

describe('prompt history', () => {
  const entries = ['first', 'second', 'third'];

  it('walks back and forth and restores the draft', () => {
    const back1 = olderEntry(entries, AT_DRAFT, 'my draft')!;
    expect(back1.text).toBe('third');
    const back2 = olderEntry(entries, back1.position, 'third')!;
    expect(back2.text).toBe('second');
    const forward = newerEntry(entries, back2.position)!;
    expect(forward.text).toBe('third');
    expect(newerEntry(entries, forward.position)).toEqual({
      position: { index: undefined, draft: '' },
      text: 'my draft',
    });
    expect(newerEntry(entries, AT_DRAFT)).toBeUndefined();
    expect(olderEntry(entries, { index: 2, draft: '' }, '')).toBeUndefined();
  });

  it('searches backwards, case-insensitively', () => {
    const list = ['git status', 'npm test', 'git log', 'ls'];
    expect(reverseSearch(list, 'GIT', list.length)).toBe(2);
    expect(reverseSearch(list, 'git', 2)).toBe(0);
    expect(reverseSearch(list, 'git', 0)).toBeUndefined();
  });

  describe('persisted across sessions', () => {
    let dir: string;
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps entries in order, bounded, skipping repeats and torn lines', () => {
      dir = mkdtempSync(join(tmpdir(), 'kodo-history-'));
      const path = join(dir, 'nested', 'input-history.jsonl');
      const store = new InputHistoryStore(path, 3);
      expect(store.load()).toEqual([]);
      store.add('one');
      store.add('two\nlines');
      store.add('two\nlines');
      store.add('three');
      expect(store.add('four')).toEqual(['two\nlines', 'three', 'four']);
      // Another session sees them.
      expect(new InputHistoryStore(path, 3).load()).toEqual(['two\nlines', 'three', 'four']);
      writeFileSync(path, `${readFileSync(path, 'utf8')}{"torn`);
      expect(store.load()).toEqual(['two\nlines', 'three', 'four']);
    });
  });
});

describe('paste placeholders', () => {
  it('collapses large pastes and expands them on send', () => {
    const big = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n');
    expect(shouldCollapsePaste(big)).toBe(true);
    expect(shouldCollapsePaste('short text')).toBe(false);
    const placeholder = pastePlaceholder(1, big);
    expect(placeholder).toBe('[Pasted text #1 +12 lines]');
    expect(expandPastes(`see ${placeholder} ok`, new Map([[placeholder, big]]))).toBe(`see ${big} ok`);
  });
});
