import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { findCustomTheme, resolveTheme, type Theme, themeFromSetting } from '../theme';
import { cssColorHex } from './css-colors';

/**
 * Gemini CLI's custom themes, read as they are and mapped onto kodo's colour roles. Two shapes
 * exist and both load:
 * - the first one: flat keys `Background`, `Foreground`, `LightBlue`, `AccentBlue`, `AccentPurple`,
 *   `AccentCyan`, `AccentGreen`, `AccentYellow`, `AccentRed`, `Comment`, `Gray` (and `DiffAdded`…);
 * - the current one: groups `text {primary, secondary, link, accent}`, `background {primary, diff}`,
 *   `border {default, focused}`, `status {success, warning, error}`, `ui {comment, symbol}`.
 * They come from `ui.customThemes` (or the older top-level `customThemes`) in settings, and from
 * a theme file that `ui.theme` names by path (only inside the home folder, as Gemini CLI).
 * A value may be a hex colour or a CSS colour name.
 */

export interface CustomThemes {
  themes: Map<string, Theme>;
  /** One line per theme or colour that could not be used. */
  warnings: string[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ANSI_NAMES = /^(black|red|green|yellow|blue|magenta|cyan|white|gray|grey)(Bright)?$/;

/** A colour the terminal renderer takes: `#rrggbb`, or a CSS name as hex; undefined otherwise. */
export function themeColor(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (/^#[0-9a-f]{6}$/i.test(trimmed)) return trimmed.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(trimmed))
    return `#${[...trimmed.slice(1)].map((digit) => digit + digit).join('')}`.toLowerCase();
  return cssColorHex(trimmed) ?? (ANSI_NAMES.test(trimmed) ? trimmed : undefined);
}

/** Whether a background colour is light (relative luminance above the middle). */
function isLight(hex: string | undefined): boolean {
  if (!hex?.startsWith('#')) return false;
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5;
}

/**
 * One Gemini CLI theme object as a kodo palette; a missing colour keeps the dark or light
 * palette's (chosen by the theme's background). Throws with the reason when it is not a theme.
 */
export function themeFromGemini(definition: unknown, name: string): Theme {
  if (!isObject(definition)) throw new Error('a theme must be a JSON object');
  const at = (path: string): string | undefined => {
    let value: unknown = definition;
    for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined;
    return themeColor(value);
  };
  const base = resolveTheme(isLight(at('background.primary') ?? at('Background')) ? 'light' : 'dark', {});
  const pick = (...candidates: (string | undefined)[]) => candidates.find((color) => color !== undefined);
  const success = pick(at('status.success'), at('AccentGreen'), base.success);
  const error = pick(at('status.error'), at('AccentRed'), base.error);
  return {
    name,
    accent: pick(at('text.accent'), at('AccentBlue'), base.accent),
    muted: pick(at('text.secondary'), at('Gray'), base.muted),
    success,
    warning: pick(at('status.warning'), at('AccentYellow'), base.warning),
    error,
    code: pick(at('ui.symbol'), at('AccentPurple'), base.code),
    link: pick(at('text.link'), at('LightBlue'), at('AccentBlue'), base.link),
    user: pick(at('text.primary'), at('Foreground'), base.user),
    // Gemini CLI's diff colours are backgrounds; kodo colours the text of diff lines.
    diffAdded: success,
    diffRemoved: error,
    border: pick(at('border.default'), at('Gray'), base.border),
    syntax: {
      keyword: pick(at('AccentBlue'), at('text.link'), base.syntax.keyword),
      string: pick(at('AccentGreen'), at('status.success'), base.syntax.string),
      number: pick(at('AccentYellow'), base.syntax.number),
      comment: pick(at('ui.comment'), at('Comment'), base.syntax.comment),
      title: pick(at('AccentPurple'), at('text.accent'), base.syntax.title),
      type: pick(at('AccentCyan'), base.syntax.type),
      attr: pick(at('AccentYellow'), base.syntax.attr),
      meta: pick(at('AccentCyan'), at('ui.symbol'), base.syntax.meta),
    },
  };
}

/**
 * Every custom theme the settings bring. `uiTheme` is `ui.theme`: when it is a path to a JSON
 * file inside `home`, that file is read too and its theme is the one to start with (`selected`).
 */
export function loadCustomThemes(options: {
  customThemes: unknown[];
  /** The `themes` of active Gemini CLI extensions: offered as `<theme> (<extension>)`. */
  extensionThemes?: readonly { extension: string; themes: readonly unknown[] }[];
  uiTheme: string | undefined;
  home: string;
  cwd: string;
  readText?: (path: string) => string;
}): CustomThemes & { selected?: string } {
  const themes = new Map<string, Theme>();
  const warnings: string[] = [];
  const add = (key: string, value: unknown, where: string) => {
    const declared = isObject(value) && typeof value.name === 'string' ? value.name : key;
    try {
      themes.set(declared, themeFromGemini(value, declared));
    } catch (error) {
      warnings.push(`Custom theme "${key}" (${where}) ignored: ${(error as Error).message}.`);
    }
  };
  for (const group of options.customThemes) {
    if (group === undefined) continue;
    if (!isObject(group)) {
      warnings.push('ui.customThemes must be an object of themes by name; ignored.');
      continue;
    }
    for (const [key, value] of Object.entries(group)) add(key, value, 'settings');
  }
  for (const { extension, themes: list } of options.extensionThemes ?? []) {
    list.forEach((value, index) => {
      const base = isObject(value) && typeof value.name === 'string' ? value.name : `#${index + 1}`;
      const name = `${base} (${extension})`;
      try {
        themes.set(name, themeFromGemini(value, name));
      } catch (error) {
        warnings.push(`Theme "${base}" of extension ${extension} ignored: ${(error as Error).message}.`);
      }
    });
  }
  const file = themeFilePath(options.uiTheme, options.cwd, options.home);
  if (!file) return { themes, warnings };
  const inHome = relative(options.home, file);
  if (inHome.startsWith('..') || isAbsolute(inHome)) {
    warnings.push(`Theme file ${file} is outside your home folder and was not loaded.`);
    return { themes, warnings };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse((options.readText ?? ((path) => readFileSync(path, 'utf8')))(file));
  } catch (error) {
    warnings.push(`Theme file ${file} could not be read: ${(error as Error).message}`);
    return { themes, warnings };
  }
  const name = isObject(parsed) && typeof parsed.name === 'string' ? parsed.name : file;
  add(name, parsed, file);
  return themes.has(name) ? { themes, warnings, selected: name } : { themes, warnings };
}

/** `ui.theme` as a theme file's path: it ends in `.json` or holds a path separator. */
function themeFilePath(value: string | undefined, cwd: string, home: string): string | undefined {
  if (!value) return undefined;
  if (!value.endsWith('.json') && !/[\\/]/.test(value)) return undefined;
  return value.startsWith('~/') ? resolve(home, value.slice(2)) : resolve(cwd, value);
}

/**
 * The themes the merged settings bring and the one to start with: a theme file named by
 * `ui.theme`, a custom theme of that name, else kodo's reading of the name (themeFromSetting).
 */
export function themesFromSettings(
  merged: { ui?: { theme?: string; customThemes?: unknown }; customThemes?: unknown },
  place: {
    cwd: string;
    home: string;
    extensionThemes?: readonly { extension: string; themes: readonly unknown[] }[];
  },
): CustomThemes & { themeName: string } {
  const uiTheme = merged.ui?.theme;
  const loaded = loadCustomThemes({
    customThemes: [merged.customThemes, merged.ui?.customThemes],
    ...(place.extensionThemes ? { extensionThemes: place.extensionThemes } : {}),
    uiTheme,
    home: place.home,
    cwd: place.cwd,
  });
  const named = uiTheme !== undefined ? findCustomTheme(loaded.themes, uiTheme)?.name : undefined;
  return {
    themes: loaded.themes,
    warnings: loaded.warnings,
    themeName: loaded.selected ?? named ?? themeFromSetting(uiTheme),
  };
}
