/**
 * Throttles a command's live output for the person's view. A chatty command writes thousands of
 * small chunks a second; passing each one on would flood the event stream and the UI with
 * re-renders. Chunks are coalesced: the first goes out at once, later ones at most every
 * `intervalMs`. If more than `maxPendingChars` arrive within one interval only the newest are
 * passed on — a live view shows the end of the output, and the pending text stays bounded.
 */
export const LIVE_OUTPUT_INTERVAL_MS = 50;
export const LIVE_OUTPUT_MAX_PENDING_CHARS = 64 * 1024;

export class LiveOutput {
  private pending: string[] = [];
  private pendingChars = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (chunk: string) => void,
    private readonly options: { intervalMs: number; maxPendingChars: number } = {
      intervalMs: LIVE_OUTPUT_INTERVAL_MS,
      maxPendingChars: LIVE_OUTPUT_MAX_PENDING_CHARS,
    },
  ) {}

  push(chunk: string): void {
    if (chunk === '') return;
    if (this.timer === undefined) {
      const max = this.options.maxPendingChars;
      this.send(chunk.length > max ? chunk.slice(chunk.length - max) : chunk);
      this.startCooldown();
      return;
    }
    this.pending.push(chunk);
    this.pendingChars += chunk.length;
    if (this.pendingChars > this.options.maxPendingChars * 2) this.trimPending();
  }

  /** Sends what is pending now (the command ended). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sendPending();
  }

  private startCooldown(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.pendingChars === 0) return;
      this.sendPending();
      this.startCooldown();
    }, this.options.intervalMs);
  }

  private sendPending(): void {
    if (this.pendingChars === 0) return;
    this.trimPending();
    const text = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    this.send(text);
  }

  private trimPending(): void {
    let text = this.pending.join('');
    if (text.length > this.options.maxPendingChars)
      text = text.slice(text.length - this.options.maxPendingChars);
    this.pending = [text];
    this.pendingChars = text.length;
  }

  private send(text: string): void {
    try {
      this.emit(text);
    } catch {
      // A failing view must not break the command.
    }
  }
}
