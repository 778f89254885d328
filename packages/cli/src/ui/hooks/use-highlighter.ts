import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Highlighter } from '../markdown/highlight';
import type { HighlighterLoader } from '../markdown/highlighter-loader';

export const HighlighterContext = createContext<HighlighterLoader | undefined>(undefined);

/** The syntax highlighter once it has loaded (re-renders then); undefined before. */
export function useHighlighter(): Highlighter | undefined {
  const loader = useContext(HighlighterContext);
  return useSyncExternalStore(
    (listener) => loader?.subscribe(listener) ?? (() => {}),
    () => loader?.get(),
  );
}
