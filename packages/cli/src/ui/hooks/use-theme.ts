import { createContext, useContext } from 'react';
import { resolveTheme, type Theme } from '../theme';

/** The active palette; the App provides it and `/theme` swaps it. */
export const ThemeContext = createContext<Theme>(resolveTheme('dark', {}));

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
