import type { Key } from 'ink';

/**
 * The UI's rebindable actions and the keys that trigger them. `~/.kodo/keybindings.json`
 * (keybindings-file.ts) changes them in Claude Code's format: blocks of `{context, bindings}`
 * where `bindings` maps a keystroke (`ctrl+e`, `shift+tab`, `alt+b`, `escape`) to an action
 * (`app:toggleYolo`) or to `null` to unbind it.
 */

export const ACTIONS = {
  'app:cycleMode': { context: 'Global', keys: ['shift+tab'], help: 'cycle approval mode' },
  'app:toggleYolo': { context: 'Global', keys: ['ctrl+y'], help: 'YOLO mode on / off' },
  'app:toggleThoughts': { context: 'Global', keys: ['ctrl+t'], help: 'show or hide thoughts' },
  'app:redraw': { context: 'Global', keys: ['ctrl+l'], help: 'redraw the screen' },
  'chat:historySearch': { context: 'Chat', keys: ['ctrl+r'], help: 'search earlier prompts' },
  'chat:pasteImage': { context: 'Chat', keys: ['ctrl+v'], help: 'paste an image from the clipboard' },
  'chat:lineStart': { context: 'Chat', keys: ['ctrl+a'], help: 'go to the start of the line' },
  'chat:lineEnd': { context: 'Chat', keys: ['ctrl+e'], help: 'go to the end of the line' },
  'chat:deleteWordLeft': { context: 'Chat', keys: ['ctrl+w'], help: 'delete the word before the cursor' },
  'chat:killLineStart': { context: 'Chat', keys: ['ctrl+u'], help: 'delete to the start of the line' },
  'chat:killLineEnd': { context: 'Chat', keys: ['ctrl+k'], help: 'delete to the end of the line' },
  'chat:wordLeft': { context: 'Chat', keys: ['alt+b'], help: 'one word left' },
  'chat:wordRight': { context: 'Chat', keys: ['alt+f'], help: 'one word right' },
} as const satisfies Record<string, { context: 'Global' | 'Chat'; keys: readonly string[]; help: string }>;

export type KeyAction = keyof typeof ACTIONS;
export const CONTEXTS = ['Global', 'Chat'] as const;

export function isKeyAction(value: string): value is KeyAction {
  return Object.hasOwn(ACTIONS, value);
}

/** A keystroke: modifiers and one key (a character, or a named key). */
export interface KeyStroke {
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  /** A lowercase character, or one of NAMED_KEYS. */
  key: string;
}

const NAMED_KEYS = new Set([
  'escape',
  'tab',
  'enter',
  'return',
  'backspace',
  'delete',
  'up',
  'down',
  'left',
  'right',
  'home',
  'end',
  'pageup',
  'pagedown',
  'space',
]);

/**
 * `ctrl+e`, `Ctrl+Shift+Tab`, `alt+b` (= `meta+b`, `option+b`), `escape`, as a KeyStroke; a
 * message saying why not otherwise.
 */
export function parseKeyStroke(text: string): KeyStroke | { error: string } {
  const parts = text
    .trim()
    .toLowerCase()
    .split('+')
    .map((part) => part.trim());
  const name = parts.pop();
  if (!name) return { error: 'an empty keystroke' };
  const stroke: KeyStroke = { ctrl: false, meta: false, shift: false, key: name === 'esc' ? 'escape' : name };
  for (const modifier of parts) {
    if (modifier === 'ctrl' || modifier === 'control') stroke.ctrl = true;
    else if (modifier === 'alt' || modifier === 'meta' || modifier === 'option') stroke.meta = true;
    else if (modifier === 'shift') stroke.shift = true;
    else return { error: `unknown modifier "${modifier}"` };
  }
  if (stroke.key === 'return') stroke.key = 'enter';
  if (stroke.key.length !== 1 && !NAMED_KEYS.has(stroke.key)) return { error: `unknown key "${name}"` };
  // A printable character alone would stop the person from typing it.
  if (stroke.key.length === 1 && !stroke.ctrl && !stroke.meta)
    return { error: 'a key without ctrl or alt would stop you typing it' };
  // These keep their meaning everywhere: Ctrl+C cancels and exits, Ctrl+D exits.
  if (stroke.ctrl && !stroke.meta && (stroke.key === 'c' || stroke.key === 'd'))
    return { error: `ctrl+${stroke.key} is reserved` };
  return stroke;
}

function strokeId(stroke: KeyStroke): string {
  return `${stroke.ctrl ? 'ctrl+' : ''}${stroke.meta ? 'alt+' : ''}${stroke.shift ? 'shift+' : ''}${stroke.key}`;
}

/** The KeyStroke of a key event as Ink reports it. */
export function strokeOf(input: string, key: Key): KeyStroke {
  const named = key.escape
    ? 'escape'
    : key.tab
      ? 'tab'
      : key.return
        ? 'enter'
        : key.backspace
          ? 'backspace'
          : key.delete
            ? 'delete'
            : key.upArrow
              ? 'up'
              : key.downArrow
                ? 'down'
                : key.leftArrow
                  ? 'left'
                  : key.rightArrow
                    ? 'right'
                    : key.home
                      ? 'home'
                      : key.end
                        ? 'end'
                        : key.pageUp
                          ? 'pageup'
                          : key.pageDown
                            ? 'pagedown'
                            : input === ' '
                              ? 'space'
                              : undefined;
  return {
    ctrl: key.ctrl,
    meta: key.meta && !key.escape,
    shift: named !== undefined && key.shift,
    key: named ?? input.toLowerCase(),
  };
}

/** Which keys trigger which action. */
export class Keymap {
  private readonly byStroke = new Map<string, KeyAction>();

  constructor(private readonly keys: ReadonlyMap<KeyAction, readonly KeyStroke[]>) {
    for (const [action, strokes] of keys)
      for (const stroke of strokes) this.byStroke.set(strokeId(stroke), action);
  }

  /** kodo's own bindings. */
  static defaults(): Keymap {
    return new Keymap(defaultKeys());
  }

  /** The action a key event triggers, if any. */
  actionFor(input: string, key: Key): KeyAction | undefined {
    return this.byStroke.get(strokeId(strokeOf(input, key)));
  }

  is(action: KeyAction, input: string, key: Key): boolean {
    return this.actionFor(input, key) === action;
  }

  /** `Ctrl+R` or `Ctrl+R, Alt+S`, for help texts; `unbound` when nothing triggers it. */
  describe(action: KeyAction): string {
    const strokes = this.keys.get(action) ?? [];
    if (strokes.length === 0) return 'unbound';
    return strokes
      .map((stroke) =>
        strokeId(stroke)
          .split('+')
          .map((part) => (part.length === 1 ? part.toUpperCase() : part[0]!.toUpperCase() + part.slice(1)))
          .join('+'),
      )
      .join(', ');
  }
}

export function defaultKeys(): Map<KeyAction, KeyStroke[]> {
  const keys = new Map<KeyAction, KeyStroke[]>();
  for (const [action, spec] of Object.entries(ACTIONS) as [KeyAction, (typeof ACTIONS)[KeyAction]][]) {
    keys.set(
      action,
      spec.keys.map((text) => parseKeyStroke(text) as KeyStroke),
    );
  }
  return keys;
}

export { strokeId };
