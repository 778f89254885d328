import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { themeFromSetting } from '../../src/ui/theme';
import { loadCustomThemes, themeColor, themesFromSettings } from '../../src/ui/themes/custom-themes';
import { KEYS, renderApp } from './helpers';

/**
 * Issue R: Gemini CLI's custom themes load as they are. The definitions below are Gemini CLI's
 * own documented ones: the flat shape of its first releases (settings `customThemes`), the
 * grouped shape of current releases (a theme file named by `ui.theme`), and its extension
 * example's partial theme.
 */

// Gemini CLI docs/cli/themes.md, the flat shape.
const FLAT = {
  name: 'MyCustomTheme',
  type: 'custom',
  Background: '#181818',
  Foreground: '#F8F8F2',
  LightBlue: '#82AAFF',
  AccentBlue: '#61AFEF',
  AccentPurple: '#C678DD',
  AccentCyan: '#56B6C2',
  AccentGreen: '#98C379',
  AccentYellow: '#E5C07B',
  AccentRed: '#E06C75',
  Comment: '#5C6370',
  Gray: '#ABB2BF',
};

// Gemini CLI docs/cli/themes.md, "Loading themes from a file" (my-theme.json).
const GRUVBOX = {
  name: 'Gruvbox Dark',
  type: 'custom',
  background: { primary: '#282828', diff: { added: '#2b3312', removed: '#341212' } },
  text: { primary: '#ebdbb2', secondary: '#a89984', link: '#83a598', accent: '#d3869b' },
  border: { default: '#3c3836', focused: '#458588' },
  status: { success: '#b8bb26', warning: '#fabd2f', error: '#fb4934' },
  ui: { comment: '#928374', symbol: '#8ec07c', gradient: ['#cc241d', '#d65d0e', '#d79921'] },
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempHome(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-themes-')));
  dirs.push(dir);
  return dir;
}

describe('Gemini CLI custom themes', () => {
  it('maps the flat shape onto kodo roles', () => {
    const { themes, warnings } = loadCustomThemes({
      customThemes: [{ MyCustomTheme: FLAT }],
      uiTheme: undefined,
      home: '/h',
      cwd: '/w',
    });
    expect(warnings).toEqual([]);
    const theme = themes.get('MyCustomTheme')!;
    expect(theme.accent).toBe('#61afef');
    expect(theme.error).toBe('#e06c75');
    expect(theme.success).toBe('#98c379');
    expect(theme.muted).toBe('#abb2bf');
    expect(theme.user).toBe('#f8f8f2');
    expect(theme.syntax.comment).toBe('#5c6370');
  });

  it('loads the grouped shape from a theme file in the home folder and starts with it', () => {
    const home = tempHome();
    mkdirSync(join(home, 'themes'));
    writeFileSync(join(home, 'themes', 'my-theme.json'), JSON.stringify(GRUVBOX));
    const loaded = themesFromSettings({ ui: { theme: '~/themes/my-theme.json' } }, { cwd: '/w', home });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.themeName).toBe('Gruvbox Dark');
    const theme = loaded.themes.get('Gruvbox Dark')!;
    expect(theme).toMatchObject({
      accent: '#d3869b',
      muted: '#a89984',
      link: '#83a598',
      success: '#b8bb26',
      warning: '#fabd2f',
      error: '#fb4934',
      border: '#3c3836',
      user: '#ebdbb2',
      code: '#8ec07c',
    });
    expect(theme.syntax.comment).toBe('#928374');
  });

  it('refuses a theme file outside the home folder, with one line', () => {
    const home = tempHome();
    const loaded = themesFromSettings({ ui: { theme: '/etc/evil-theme.json' } }, { cwd: '/w', home });
    expect(loaded.themes.size).toBe(0);
    expect(loaded.warnings).toEqual([
      'Theme file /etc/evil-theme.json is outside your home folder and was not loaded.',
    ]);
    expect(loaded.themeName).toBe(themeFromSetting('/etc/evil-theme.json'));
  });

  it('fills what a partial theme leaves out (Gemini CLI extension example) and reads CSS colour names', () => {
    const { themes } = loadCustomThemes({
      customThemes: [
        { 'My-Awesome-Theme': { name: 'My-Awesome-Theme', type: 'custom', text: { primary: '#FF00FF' } } },
        {
          Named: {
            name: 'Named',
            type: 'custom',
            Background: 'ivory',
            AccentBlue: 'coral',
            AccentRed: 'nonsense',
          },
        },
      ],
      uiTheme: 'Named',
      home: '/h',
      cwd: '/w',
    });
    const partial = themes.get('My-Awesome-Theme')!;
    expect(partial.user).toBe('#ff00ff');
    expect(partial.accent).toBeDefined();
    const named = themes.get('Named')!;
    expect(named.accent).toBe('#ff7f50');
    // An ivory background is light: unknown colours come from the light palette.
    expect(named.error).toBe('#d70000');
    expect(themeColor('#abc')).toBe('#aabbcc');
    expect(themeColor('nonsense')).toBeUndefined();
  });

  it("offers an extension's themes as `<theme> (<extension>)` (Gemini CLI's themes-example)", () => {
    const { themes, warnings } = loadCustomThemes({
      customThemes: [],
      extensionThemes: [
        {
          extension: 'themes-example',
          themes: [{ name: 'My-Awesome-Theme', type: 'custom', text: { primary: '#FF00FF' } }, 7],
        },
      ],
      uiTheme: undefined,
      home: '/h',
      cwd: '/w',
    });
    expect([...themes.keys()]).toEqual(['My-Awesome-Theme (themes-example)']);
    expect(themes.get('My-Awesome-Theme (themes-example)')!.user).toBe('#ff00ff');
    expect(warnings).toEqual([
      'Theme "#2" of extension themes-example ignored: a theme must be a JSON object.',
    ]);
  });

  it('says which entry is not a theme', () => {
    const { themes, warnings } = loadCustomThemes({
      customThemes: [{ Broken: 'red' }],
      uiTheme: undefined,
      home: '/h',
      cwd: '/w',
    });
    expect(themes.size).toBe(0);
    expect(warnings).toEqual(['Custom theme "Broken" (settings) ignored: a theme must be a JSON object.']);
  });
});

describe('/theme with custom themes', () => {
  it('lists them beside the built-in ones and switches to one, saving its name', async () => {
    const { themes } = loadCustomThemes({
      customThemes: [{ MyCustomTheme: FLAT }],
      uiTheme: undefined,
      home: '/h',
      cwd: '/w',
    });
    const ui = renderApp({ appProps: { customThemes: themes } });
    try {
      await vi.waitFor(() => expect(ui.frame()).toContain('Type your message'), { timeout: 10_000 });
      await ui.type('/theme');
      await ui.press(KEYS.enter);
      await vi.waitFor(() => expect(ui.frame()).toContain('MyCustomTheme'), { timeout: 10_000 });
      expect(ui.frame()).toContain('custom (Gemini CLI theme)');
      expect(ui.frame()).toContain('no-color');
      await vi.waitFor(() => expect(ui.frame()).toContain('Enter to choose'), { timeout: 10_000 });
      // From the current theme (dark, the first) up wraps to the last: the custom one.
      await ui.press(KEYS.up, KEYS.enter);
      await vi.waitFor(() => expect(ui.frame()).toContain('Theme: MyCustomTheme'), { timeout: 10_000 });
      const saved = JSON.parse(readFileSync(join(ui.home, 'settings.json'), 'utf8'));
      expect(saved.ui.theme).toBe('MyCustomTheme');
    } finally {
      ui.cleanup();
    }
  });
});
