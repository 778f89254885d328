/**
 * Lines the person sent while the model was working ("steering", as in Codex and pi). The agent
 * loop takes them at the next step boundary — after the running tools' results, before the next
 * model request — so the model reads them with those results. A turn that ends without another
 * request leaves them here; the front end takes them back and sends them as the next prompt.
 * So does a request that carried them and failed: they are given back (`restore`), not lost.
 */
export class SteeringInbox {
  private lines: string[] = [];

  /** Adds a line; blank lines are ignored. */
  push(text: string): void {
    if (text.trim() === '') return;
    this.lines.push(text);
  }

  /** Every waiting line, oldest first; the inbox is empty afterwards. */
  take(): string[] {
    const taken = this.lines;
    this.lines = [];
    return taken;
  }

  /** Puts lines taken but never read by the model back in front of any newer ones. */
  restore(lines: readonly string[]): void {
    this.lines = [...lines, ...this.lines];
  }

  get size(): number {
    return this.lines.length;
  }
}
