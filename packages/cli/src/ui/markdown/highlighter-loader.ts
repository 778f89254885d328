import { type Highlighter, loadHighlighter } from './highlight';

/**
 * Loads the syntax highlighter once, off the startup path: code blocks render plain until it is
 * ready, and live ones re-render with colours when it arrives (subscribers are told).
 */
export class HighlighterLoader {
  private highlighter: Highlighter | undefined;
  private loading: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly load: () => Promise<Highlighter> = loadHighlighter) {}

  get(): Highlighter | undefined {
    return this.highlighter;
  }

  start(): Promise<void> {
    this.loading ??= this.load().then(
      (highlighter) => {
        this.highlighter = highlighter;
        for (const listener of this.listeners) listener();
      },
      () => {
        // Without a highlighter code stays plain; nothing else depends on it.
      },
    );
    return this.loading;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
