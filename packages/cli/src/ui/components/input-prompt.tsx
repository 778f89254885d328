import { Box, type Key, Text } from 'ink';
import { useCallback, useReducer, useRef } from 'react';
import type { SlashCommand } from '../commands/types';
import { useCompletion } from '../hooks/use-completion';
import { useKeyHandler } from '../hooks/use-key-handler';
import { useKeymap } from '../hooks/use-keymap';
import { useTheme } from '../hooks/use-theme';
import {
  AT_DRAFT,
  type HistoryPosition,
  newerEntry,
  olderEntry,
  reverseSearch,
} from '../input/history-navigation';
import { expandPastes, normalizePaste, pastePlaceholder, shouldCollapsePaste } from '../input/paste';
import * as edit from '../input/text-buffer';
import { enterNormal, normalKey, type VimMode } from '../input/vim';
import { ACTIONS } from '../keys/keymap';
import { CompletionList } from './completion-list';
import { InputView } from './input-view';

export type SubmitMode = 'prompt' | 'shell';

interface Props {
  commands: readonly SlashCommand[];
  listFiles: () => Promise<string[]>;
  /** Earlier prompts, oldest first. */
  history: readonly string[];
  width: number;
  /** Keys go to the dialog instead while it is open. */
  isActive: boolean;
  busy: boolean;
  /**
   * Returns false to keep the text in the editor. While a turn runs, Enter sends the line as
   * steering (it joins the turn at its next step) and Tab with `queue` for after the turn.
   */
  onSubmit(text: string, mode: SubmitMode, options?: { queue?: boolean }): boolean;
  /** Esc while a request runs. */
  onCancel(): void;
  /** Ctrl+C while a request runs or on an empty prompt (the App cancels, or exits on the second). */
  onInterrupt(): void;
  /** Ctrl+D on an empty prompt. */
  onExit(): void;
  /** Vim keybindings (`/vim`): Esc enters normal mode, `i`/`a`/`o`… go back to inserting. */
  vimMode?: boolean;
  /** Prompts typed ahead and waiting for the turn to end; Esc removes the last one first. */
  queuedCount?: number;
  onDropQueued?(): void;
  /**
   * Ctrl+V (`chat:pasteImage`): an image from the clipboard, saved to a file; its path is
   * inserted (and attached on sending like any pasted image path). Undefined: nothing to insert.
   */
  pasteImage?(): Promise<string | undefined>;
}

interface SearchState {
  query: string;
  /** Index into the history of the entry found, if any. */
  match: number | undefined;
}

interface EditorState {
  buffer: edit.TextBuffer;
  shellMode: boolean;
  position: HistoryPosition;
  search: SearchState | undefined;
  /** Placeholder → pasted text. */
  pastes: ReadonlyMap<string, string>;
  /** The person moved through the suggestions (Enter then accepts instead of sending). */
  navigated: boolean;
  /** Vim's mode, when vim keybindings are on. */
  vim: VimMode;
  /** The first key of a two-key vim command (`d` of `dd`). */
  vimPending: string;
}

const INITIAL_STATE: EditorState = {
  buffer: edit.EMPTY_BUFFER,
  shellMode: false,
  position: AT_DRAFT,
  search: undefined,
  pastes: new Map(),
  navigated: false,
  vim: 'insert',
  vimPending: '',
};

const BRACKETED_PASTE_START = '[200~';
const BRACKETED_PASTE_END = '[201~';
/** Shift+Enter as terminals with modifyOtherKeys or the CSI-u protocol send it. */
const SHIFT_ENTER = new Set(['[13;2u', '[27;2;13~']);

/**
 * The input editor: multi-line text (Alt+Enter, Ctrl+J or a trailing `\` for a new line), ↑/↓
 * history, Ctrl+R reverse search, completion of `/commands` and `@paths`, `!` shell mode, and
 * large pastes collapsed into placeholders.
 */
export function InputPrompt(props: Props) {
  const { commands, listFiles, history, width, isActive, busy } = props;
  const vimMode = props.vimMode === true;
  const queuedCount = props.queuedCount ?? 0;
  const theme = useTheme();
  const keymap = useKeymap();
  // Several key events can arrive in one tick (before React re-renders), so handlers read and
  // write the latest state through a ref; a counter makes React render it.
  const state = useRef<EditorState>(INITIAL_STATE);
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const update = useCallback((patch: Partial<EditorState>) => {
    state.current = { ...state.current, ...patch };
    rerender();
  }, []);
  // Bracketed paste arrives as several key events; collect them without re-rendering each time.
  const pasting = useRef<string[] | undefined>(undefined);
  const { buffer, shellMode, search } = state.current;
  const completion = useCompletion(buffer, commands, listFiles);

  const change = (next: edit.TextBuffer) => update({ buffer: next, navigated: false });
  const setBuffer = (next: edit.TextBuffer) => update({ buffer: next });

  const insertPaste = (raw: string) => {
    const text = normalizePaste(raw);
    const { buffer: current, pastes } = state.current;
    if (!shouldCollapsePaste(text)) {
      change(edit.insert(current, text));
      return;
    }
    const placeholder = pastePlaceholder(pastes.size + 1, text);
    update({
      pastes: new Map(pastes).set(placeholder, text),
      buffer: edit.insert(current, placeholder),
      navigated: false,
    });
  };

  const submit = (options: { queue?: boolean } = {}) => {
    const { buffer: current, pastes, shellMode: shell } = state.current;
    const text = expandPastes(current.text, pastes);
    if (text.trim() === '') return;
    if (!props.onSubmit(text, shell ? 'shell' : 'prompt', options)) return;
    update({ ...INITIAL_STATE, shellMode: shell });
  };

  const acceptCompletion = () => {
    const suggestion = completion.suggestions[completion.selected];
    if (!suggestion) return;
    const trailing = suggestion.value.endsWith('/') ? '' : ' ';
    change(
      edit.replaceBeforeCursor(state.current.buffer, completion.replaceLength, suggestion.value + trailing),
    );
  };

  /** A key in vim's normal mode; false when it keeps its usual meaning (arrows, Ctrl keys, Esc). */
  const handleNormalKey = (input: string, key: Key): boolean => {
    if (key.escape || key.ctrl || key.meta || key.tab) return false;
    if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return false;
    if (key.home || key.end || key.pageUp || key.pageDown) return false;
    if (key.return && (key.shift || key.meta)) return false;
    const { buffer: current, vimPending } = state.current;
    const name = key.return ? 'enter' : key.backspace || key.delete ? 'h' : input;
    // Each character of a chunk (typed fast, or pasted) is a command of its own.
    let next = { buffer: current, mode: 'normal' as VimMode, pending: vimPending };
    for (const char of name === 'enter' ? ['enter'] : Array.from(name)) {
      if (next.mode === 'insert') {
        next = { ...next, buffer: edit.insert(next.buffer, char) };
        continue;
      }
      const result = normalKey(next, char);
      if (result.submit) {
        update({ buffer: next.buffer, vimPending: '' });
        submit();
        return true;
      }
      next = { buffer: result.buffer, mode: result.mode, pending: result.pending };
    }
    update({ buffer: next.buffer, vim: next.mode, vimPending: next.pending, navigated: false });
    return true;
  };

  const handleSearchKey = (input: string, key: Key, search: SearchState) => {
    if (key.escape || (key.ctrl && (input === 'c' || input === 'g'))) {
      update({ search: undefined });
      return;
    }
    if (key.return || key.tab || key.leftArrow || key.rightArrow) {
      const found = search.match !== undefined ? history[search.match] : undefined;
      update({ search: undefined, ...(found !== undefined ? { buffer: edit.bufferOf(found) } : {}) });
      return;
    }
    if (keymap.is('chat:historySearch', input, key)) {
      const older =
        search.match === undefined ? undefined : reverseSearch(history, search.query, search.match);
      if (older !== undefined) update({ search: { ...search, match: older } });
      return;
    }
    let query = search.query;
    if (key.backspace || key.delete) query = query.slice(0, -1);
    else if (!key.ctrl && !key.meta) query += input;
    update({
      search: { query, match: query === '' ? undefined : reverseSearch(history, query, history.length) },
    });
  };

  useKeyHandler(
    (input, key) => {
      const { buffer, shellMode, search, position } = state.current;
      if (pasting.current) {
        if (input === BRACKETED_PASTE_END) {
          const text = pasting.current.join('');
          pasting.current = undefined;
          insertPaste(text);
        } else {
          pasting.current.push(key.return ? '\n' : input);
        }
        return;
      }
      if (input === BRACKETED_PASTE_START) {
        pasting.current = [];
        return;
      }
      if (search) {
        handleSearchKey(input, key, search);
        return;
      }
      if (key.ctrl && input === 'c') {
        if (!busy && (buffer.text !== '' || shellMode)) update(INITIAL_STATE);
        else props.onInterrupt();
        return;
      }
      if (key.ctrl && input === 'd') {
        if (buffer.text === '') props.onExit();
        else change(edit.deleteForward(buffer));
        return;
      }
      if (vimMode && state.current.vim === 'normal' && handleNormalKey(input, key)) return;
      if (key.escape) {
        if (completion.open) completion.dismiss();
        else if (vimMode && state.current.vim === 'insert') {
          const normal = enterNormal(buffer);
          update({ buffer: normal.buffer, vim: 'normal', vimPending: '' });
        } else if (queuedCount > 0) props.onDropQueued?.();
        else if (busy) props.onCancel();
        else if (shellMode && buffer.text === '') update({ shellMode: false });
        return;
      }
      const action = keymap.actionFor(input, key);
      // The App's own keys (keybindings.json may give it one the input would otherwise take).
      if (action !== undefined && ACTIONS[action].context === 'Global') return;
      if (action === 'chat:historySearch') {
        update({ search: { query: '', match: undefined } });
        return;
      }
      if (action === 'chat:pasteImage' && props.pasteImage) {
        void props.pasteImage().then((path) => {
          if (path === undefined) return;
          const current = state.current.buffer;
          const before = current.text.slice(0, current.cursor);
          const gap = before === '' || /\s$/.test(before) ? '' : ' ';
          change(edit.insert(current, `${gap}${path} `));
        });
        return;
      }
      const newline = (key.return && (key.meta || key.shift)) || input === '\n' || SHIFT_ENTER.has(input);
      if (newline) {
        change(edit.insert(buffer, '\n'));
        return;
      }
      if (key.return) {
        if (completion.open && state.current.navigated) {
          acceptCompletion();
          return;
        }
        if (buffer.text.slice(0, buffer.cursor).endsWith('\\')) {
          change(edit.insert(edit.backspace(buffer), '\n'));
          return;
        }
        submit();
        return;
      }
      if (key.tab) {
        if (!key.shift && completion.open) acceptCompletion();
        // While a turn runs, Tab queues the line for after it (Enter would steer the turn).
        else if (!key.shift && busy) submit({ queue: true });
        return;
      }
      if (key.upArrow || key.downArrow) {
        if (completion.open) {
          const count = completion.suggestions.length;
          completion.select((completion.selected + (key.upArrow ? count - 1 : 1)) % count);
          update({ navigated: true });
          return;
        }
        const moved = key.upArrow ? edit.moveUp(buffer) : edit.moveDown(buffer);
        if (moved) {
          setBuffer(moved);
          return;
        }
        const entry = key.upArrow
          ? olderEntry(history, position, buffer.text)
          : newerEntry(history, position);
        if (entry) update({ position: entry.position, buffer: edit.bufferOf(entry.text) });
        return;
      }
      if (key.leftArrow)
        return setBuffer(key.ctrl || key.meta ? edit.wordLeft(buffer) : edit.moveLeft(buffer));
      if (key.rightArrow)
        return setBuffer(key.ctrl || key.meta ? edit.wordRight(buffer) : edit.moveRight(buffer));
      if (key.home || action === 'chat:lineStart') return setBuffer(edit.lineStart(buffer));
      if (key.end || action === 'chat:lineEnd') return setBuffer(edit.lineEnd(buffer));
      if (key.backspace || key.delete) {
        if (buffer.text === '' && shellMode) update({ shellMode: false });
        else change(key.meta ? edit.deleteWordLeft(buffer) : edit.backspace(buffer));
        return;
      }
      if (action === 'chat:deleteWordLeft') return change(edit.deleteWordLeft(buffer));
      if (action === 'chat:killLineStart') return change(edit.killToLineStart(buffer));
      if (action === 'chat:killLineEnd') return change(edit.killToLineEnd(buffer));
      if (action === 'chat:wordLeft') return setBuffer(edit.wordLeft(buffer));
      if (action === 'chat:wordRight') return setBuffer(edit.wordRight(buffer));
      if (key.ctrl || key.meta || input === '') return;
      if (input === '!' && buffer.text === '' && !shellMode) {
        update({ shellMode: true });
        return;
      }
      // A chunk of several characters with line breaks is a paste from a terminal without
      // bracketed paste: its newlines are text, not Enter.
      if (input.length > 1 && /[\r\n]/.test(input)) {
        insertPaste(input);
        return;
      }
      change(edit.insert(buffer, input));
    },
    { isActive },
  );

  const marker = search ? `(search '${search.query}')` : shellMode ? '!' : '>';
  const shown = search ? edit.bufferOf(search.match !== undefined ? history[search.match]! : '') : buffer;
  return (
    <Box flexDirection="column">
      <InputView
        buffer={shown}
        marker={marker}
        markerColor={shellMode ? theme.warning : theme.accent}
        placeholder={
          search
            ? 'type to search earlier prompts'
            : shellMode
              ? 'shell command (esc to leave shell mode)'
              : busy
                ? queuedCount > 0
                  ? 'type ahead… (esc removes the last queued prompt)'
                  : 'type ahead… (queued until the turn ends; esc cancels the request)'
                : 'Type your message, @path to attach, / for commands'
        }
        width={width}
        showCursor={isActive}
      />
      {completion.open && isActive && !search ? (
        <CompletionList suggestions={completion.suggestions} selected={completion.selected} width={width} />
      ) : null}
      {vimMode && !search ? (
        <Text color={state.current.vim === 'normal' ? theme.accent : theme.muted}>
          {state.current.vim === 'normal' ? ' [NORMAL]' : ' [INSERT]'}
        </Text>
      ) : null}
      {shellMode && !search ? (
        <Text color={theme.warning}> shell mode: commands run in the workspace, approval applies</Text>
      ) : null}
    </Box>
  );
}
