import { describe, expect, it } from 'vitest';
import { resolveTheme, THEME_NAMES, type Theme, themeFromSetting } from '../../src/ui/theme';

/** Every colour a palette names (roles and syntax roles). */
function colours(theme: Theme): (string | undefined)[] {
  const { name: _name, syntax, ...roles } = theme;
  return [...Object.values(roles), ...Object.values(syntax)];
}

const SIXTEEN = /^(black|red|green|yellow|blue|magenta|cyan|white|gray|grey)(Bright)?$/;

describe('themes', () => {
  it('offers dark, light, ANSI-only and no-colour palettes', () => {
    expect(THEME_NAMES).toEqual(['dark', 'light', 'ansi', 'no-color']);
    for (const name of THEME_NAMES) expect(resolveTheme(name, {}).name).toBe(name);
  });

  it('the ANSI theme names only the 16 terminal colours, the no-colour theme none', () => {
    for (const colour of colours(resolveTheme('ansi', {}))) expect(colour).toMatch(SIXTEEN);
    expect(colours(resolveTheme('no-color', {})).every((colour) => colour === undefined)).toBe(true);
    expect(colours(resolveTheme('dark', {})).some((colour) => colour?.startsWith('#'))).toBe(true);
  });

  it('NO_COLOR turns colours off whatever the theme', () => {
    for (const name of THEME_NAMES) expect(resolveTheme(name, { NO_COLOR: '1' }).name).toBe('no-color');
    expect(resolveTheme('ansi', { NO_COLOR: '' }).name).toBe('ansi');
  });

  it('reads ui.theme in kodo or Gemini CLI spelling', () => {
    expect(themeFromSetting(undefined)).toBe('dark');
    expect(themeFromSetting('ansi')).toBe('ansi');
    expect(themeFromSetting('ANSI Light')).toBe('ansi');
    expect(themeFromSetting('GitHub Light')).toBe('light');
    expect(themeFromSetting('NoColor')).toBe('no-color');
    expect(themeFromSetting('Dracula')).toBe('dark');
  });
});
