/**
 * Keeps a retried stream from printing its answer twice. Text mode streams the answer as it
 * arrives, so when a stream breaks and is retried, the partial answer is already on screen; the
 * retried attempt usually starts with the same text. Its output is held back while it repeats
 * what was printed, and only the new part is printed. If it diverges, it is printed from a new
 * line and `onDiverged` is told.
 */
export class RetryDedup {
  private printed = '';
  private replay: string | undefined;

  constructor(
    private readonly print: (text: string) => void,
    private readonly onDiverged: () => void,
  ) {}

  /** A new attempt of the same model turn starts. */
  retry(): void {
    if (this.printed !== '') this.replay = '';
  }

  /** The model turn is over (finished, or moved on to tools). */
  endTurn(): void {
    this.printed = '';
    this.replay = undefined;
  }

  content(text: string): void {
    if (this.replay === undefined) {
      this.printed += text;
      this.print(text);
      return;
    }
    this.replay += text;
    if (this.printed.startsWith(this.replay)) return;
    if (this.replay.startsWith(this.printed)) {
      this.print(this.replay.slice(this.printed.length));
    } else {
      this.onDiverged();
      this.print(`\n${this.replay}`);
    }
    this.printed = this.replay;
    this.replay = undefined;
  }
}
