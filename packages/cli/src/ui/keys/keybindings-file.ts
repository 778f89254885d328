import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIONS, CONTEXTS, defaultKeys, isKeyAction, Keymap, parseKeyStroke, strokeId } from './keymap';

/**
 * `~/.kodo/keybindings.json`, in Claude Code's shape:
 *
 *     {"bindings": [{"context": "Chat", "bindings": {"ctrl+e": "chat:historySearch", "ctrl+r": null}}]}
 *
 * A keystroke bound here is taken from whatever action had it by default (the file wins); `null`
 * unbinds it. Each bad entry is skipped with one line naming it; the rest apply.
 */
export function keybindingsFile(kodoHome: string): string {
  return join(kodoHome, 'keybindings.json');
}

export function loadKeymap(
  file: string,
  readText: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): { keymap: Keymap; warnings: string[] } {
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { keymap: Keymap.defaults(), warnings: [] };
    return {
      keymap: Keymap.defaults(),
      warnings: [`${file}: ${(error as Error).message}; default keys used.`],
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      keymap: Keymap.defaults(),
      warnings: [`${file} is not valid JSON (${(error as Error).message}); default keys used.`],
    };
  }
  return keymapFrom(data, file);
}

export function keymapFrom(data: unknown, file: string): { keymap: Keymap; warnings: string[] } {
  const warnings: string[] = [];
  const keys = defaultKeys();
  const blocks = isObject(data) ? data.bindings : undefined;
  if (!Array.isArray(blocks)) {
    return {
      keymap: new Keymap(keys),
      warnings: [`${file}: expected {"bindings": [{"context", "bindings"}, …]}; default keys used.`],
    };
  }
  blocks.forEach((block, index) => {
    const where = `${file}: bindings[${index}]`;
    if (!isObject(block) || !isObject(block.bindings)) {
      warnings.push(`${where} needs a "bindings" object of keystroke → action; ignored.`);
      return;
    }
    const context = block.context;
    if (context !== undefined && !(CONTEXTS as readonly unknown[]).includes(context)) {
      warnings.push(
        `${where}: unknown context ${JSON.stringify(context)} (kodo has ${CONTEXTS.join(', ')}); ignored.`,
      );
      return;
    }
    for (const [keystroke, action] of Object.entries(block.bindings)) {
      const entry = `${where} "${keystroke}"`;
      const stroke = parseKeyStroke(keystroke);
      if ('error' in stroke) {
        warnings.push(`${entry}: ${stroke.error}; ignored.`);
        continue;
      }
      if (action !== null && (typeof action !== 'string' || !isKeyAction(action))) {
        warnings.push(`${entry}: unknown action ${JSON.stringify(action)}; ignored.`);
        continue;
      }
      if (action !== null && context !== undefined && ACTIONS[action].context !== context) {
        warnings.push(
          `${entry}: ${action} belongs to the ${ACTIONS[action].context} context, not ${context}; ignored.`,
        );
        continue;
      }
      // The file wins: the keystroke leaves whatever action had it.
      const id = strokeId(stroke);
      for (const [other, strokes] of keys)
        keys.set(
          other,
          strokes.filter((candidate) => strokeId(candidate) !== id),
        );
      if (action !== null) keys.get(action)!.push(stroke);
    }
  });
  return { keymap: new Keymap(keys), warnings };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
