import { renderToString } from 'ink';
import { useEffect, useRef } from 'react';
import { HighlighterContext } from '../hooks/use-highlighter';
import { ThemeContext } from '../hooks/use-theme';
import type { Theme } from '../theme';
import type { HighlighterLoader } from './highlighter-loader';
import { Markdown } from './markdown';

/**
 * Draws a sample answer once, off screen, while the person types their first prompt.
 *
 * The first answer otherwise pays for everything that runs for the first time: V8 compiling the
 * Markdown, table and code-block code, highlight.js compiling a language's grammar on its first
 * use (tens of milliseconds each), Ink's layout and output paths. Paid while the answer streams,
 * that is a few hundred milliseconds in which keys are not echoed and the first token waits.
 * Each step is short and runs in its own turn of the event loop, so keys typed meanwhile are
 * drawn between steps.
 */
const SAMPLE_CODE: Record<string, string> = {
  typescript: 'export function add(a: number, b: number): number {\n  return a + b; // sum\n}',
  javascript: "const items = [1, 2, 3].map((n) => n * 2);\nconsole.log('items', items, /done/);",
  python: 'def add(a: int, b: int) -> int:\n    """Sum."""\n    return a + b  # sum',
  bash: 'for f in *.ts; do\n  echo "$f" | grep -q test && npm test -- "$f"\ndone',
  json: '{ "name": "kodo", "version": 1, "tags": ["a", "b"], "ok": true }',
};

const SAMPLE_ANSWER = [
  '# Heading',
  '',
  'A paragraph with **bold**, *emphasis*, `code` and a [link](https://example.com).',
  '',
  '- item one',
  '- item two with `value`',
  '',
  '1. first',
  '2. second',
  '',
  '> a quote',
  '',
  '| step | input | output |',
  '|---|---|---|',
  '| 1 | 2 | 3 |',
  '',
  ...Object.entries(SAMPLE_CODE).flatMap(([language, code]) => [`\`\`\`${language}`, code, '```', '']),
  // No language: highlight.js guesses, running (and first compiling) every grammar.
  '```',
  SAMPLE_CODE.python,
  '```',
].join('\n');

/** Yields to the event loop: pending input and timers run before the next step. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function warmUpAnswerDrawing(options: {
  highlighter: HighlighterLoader;
  theme: Theme;
  width: number;
  signal: AbortSignal;
}): Promise<void> {
  const { highlighter, theme, width, signal } = options;
  const loaded = highlighter.get();
  for (const [language, code] of Object.entries(SAMPLE_CODE)) {
    await nextTurn();
    if (signal.aborted) return;
    loaded?.highlight(code, language);
  }
  await nextTurn();
  if (signal.aborted) return;
  renderToString(
    <ThemeContext.Provider value={theme}>
      <HighlighterContext.Provider value={highlighter}>
        <Markdown text={SAMPLE_ANSWER} width={width} />
      </HighlighterContext.Provider>
    </ThemeContext.Provider>,
    { columns: width },
  );
}

/** The grammars load this long after the prompt is drawn (nothing needs them before). */
const HIGHLIGHTER_DELAY_MS = 250;
/** The first warm-up runs right after the prompt is drawn. */
const WARM_UP_DELAY_MS = 30;

/**
 * While the person types the first prompt: the sample answer drawn at once, the grammars
 * loaded, the sample drawn again with code highlighted. The first prompt (`busy`) aborts what is
 * left, so a warm-up never holds up a real answer.
 */
export function useAnswerWarmUp(options: {
  highlighter: HighlighterLoader;
  theme: Theme;
  width: number;
  busy: boolean;
}): void {
  const { highlighter, busy } = options;
  const latest = useRef(options);
  latest.current = options;
  const abort = useRef<AbortController | undefined>(undefined);
  useEffect(() => {
    if (busy) abort.current?.abort();
  }, [busy]);
  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    const warm = () =>
      warmUpAnswerDrawing({
        highlighter,
        theme: latest.current.theme,
        width: latest.current.width,
        signal: controller.signal,
      });
    const first = setTimeout(warm, WARM_UP_DELAY_MS);
    const grammars = setTimeout(() => {
      void highlighter.start().then(warm);
    }, HIGHLIGHTER_DELAY_MS);
    return () => {
      clearTimeout(first);
      clearTimeout(grammars);
      controller.abort();
    };
  }, [highlighter]);
}
