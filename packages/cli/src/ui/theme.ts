/**
 * Colour palettes for the interactive UI. Components never name a colour directly: they ask the
 * theme for a role (accent, success, diff addition…), so dark, light and "no colour" stay
 * consistent. `ansi` uses only the terminal's own 16 colours (so the terminal's palette decides);
 * `no-color`, or `NO_COLOR` (any non-empty value, see no-color.org), uses none; bold, dim and
 * inverse still mark structure there.
 */
export type ThemeName = 'dark' | 'light' | 'ansi' | 'no-color';

export interface Theme {
  /** A built-in ThemeName, or a custom theme's own name (themes/custom-themes.ts). */
  name: string;
  /** Prompt marker, headings, the selected dialog option. */
  accent: string | undefined;
  /** Secondary text: hints, footer, descriptions. */
  muted: string | undefined;
  success: string | undefined;
  warning: string | undefined;
  error: string | undefined;
  /** Inline code and file paths. */
  code: string | undefined;
  link: string | undefined;
  /** The person's own prompts in the history. */
  user: string | undefined;
  diffAdded: string | undefined;
  diffRemoved: string | undefined;
  border: string | undefined;
  /** Syntax highlighting roles (highlight.js class names, without `hljs-`). */
  syntax: {
    keyword: string | undefined;
    string: string | undefined;
    number: string | undefined;
    comment: string | undefined;
    title: string | undefined;
    type: string | undefined;
    attr: string | undefined;
    meta: string | undefined;
  };
}

const DARK: Theme = {
  name: 'dark',
  accent: '#87afff',
  muted: 'gray',
  success: 'green',
  warning: 'yellow',
  error: 'red',
  code: '#d7af87',
  link: '#5fafff',
  user: '#afafaf',
  diffAdded: 'green',
  diffRemoved: 'red',
  border: 'gray',
  syntax: {
    keyword: '#c678dd',
    string: '#98c379',
    number: '#d19a66',
    comment: 'gray',
    title: '#61afef',
    type: '#e5c07b',
    attr: '#d19a66',
    meta: '#56b6c2',
  },
};

const LIGHT: Theme = {
  name: 'light',
  accent: '#005fd7',
  muted: '#6c6c6c',
  success: '#008700',
  warning: '#af5f00',
  error: '#d70000',
  code: '#875f00',
  link: '#0000d7',
  user: '#444444',
  diffAdded: '#008700',
  diffRemoved: '#d70000',
  border: '#8a8a8a',
  syntax: {
    keyword: '#a626a4',
    string: '#50a14f',
    number: '#986801',
    comment: '#8a8a8a',
    title: '#4078f2',
    type: '#c18401',
    attr: '#986801',
    meta: '#0184bc',
  },
};

/** Only the 16 named colours: every terminal has them, and its own palette chooses the shades. */
const ANSI: Theme = {
  name: 'ansi',
  accent: 'blue',
  muted: 'gray',
  success: 'green',
  warning: 'yellow',
  error: 'red',
  code: 'cyan',
  link: 'blueBright',
  user: 'white',
  diffAdded: 'green',
  diffRemoved: 'red',
  border: 'gray',
  syntax: {
    keyword: 'magenta',
    string: 'green',
    number: 'yellow',
    comment: 'gray',
    title: 'blue',
    type: 'cyan',
    attr: 'yellow',
    meta: 'cyan',
  },
};

const NO_COLOR: Theme = {
  name: 'no-color',
  accent: undefined,
  muted: undefined,
  success: undefined,
  warning: undefined,
  error: undefined,
  code: undefined,
  link: undefined,
  user: undefined,
  diffAdded: undefined,
  diffRemoved: undefined,
  border: undefined,
  syntax: {
    keyword: undefined,
    string: undefined,
    number: undefined,
    comment: undefined,
    title: undefined,
    type: undefined,
    attr: undefined,
    meta: undefined,
  },
};

export const THEME_NAMES: readonly ThemeName[] = ['dark', 'light', 'ansi', 'no-color'];

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}

/**
 * The theme a `ui.theme` setting names: kodo's own names, or Gemini CLI's ("ANSI Light",
 * "GitHub Light", "Default"…) mapped to the nearest one. Unknown names get the dark theme.
 */
export function themeFromSetting(value: string | undefined): ThemeName {
  if (value === undefined) return 'dark';
  const name = value.trim().toLowerCase();
  if (isThemeName(name)) return name;
  if (/no[\s_-]?colou?r|^none$/.test(name)) return 'no-color';
  if (name.startsWith('ansi')) return 'ansi';
  return /light/.test(name) ? 'light' : 'dark';
}

const PALETTES: Record<ThemeName, Theme> = { dark: DARK, light: LIGHT, ansi: ANSI, 'no-color': NO_COLOR };

/**
 * The palette for a theme name — a custom theme's (`custom`) or a built-in one, Gemini CLI's
 * names mapped as themeFromSetting does — or the colourless one when the environment asks for it.
 */
export function resolveTheme(
  name: string,
  env: NodeJS.ProcessEnv,
  custom?: ReadonlyMap<string, Theme>,
): Theme {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return NO_COLOR;
  const own = custom && findCustomTheme(custom, name);
  if (own) return own;
  return PALETTES[isThemeName(name) ? name : themeFromSetting(name)];
}

/** A custom theme by its name, exactly or ignoring case. */
export function findCustomTheme(custom: ReadonlyMap<string, Theme>, name: string): Theme | undefined {
  const exact = custom.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const [key, theme] of custom) if (key.toLowerCase() === lower) return theme;
  return undefined;
}
