import { useEffect, useReducer } from 'react';

/**
 * Re-renders the calling component `intervalMs` after its last render, unless something else
 * rendered it sooner. Animations that read the clock while rendering (the spinner, the elapsed
 * time) then advance with the live region's repaints while an answer streams, instead of adding
 * repaints of their own: Ink redraws the whole dynamic region on every commit, and each redraw
 * costs the same (and makes the same garbage) whether one character changed or the whole answer.
 */
export function useIdleRepaint(intervalMs: number): void {
  const [, repaint] = useReducer((count: number) => count + 1, 0);
  // No dependency list: the timer restarts after every render of the component.
  useEffect(() => {
    const timer = setTimeout(repaint, intervalMs);
    return () => clearTimeout(timer);
  });
}
