/**
 * Incremental Server-Sent Events decoder (WHATWG "event stream" parsing rules), fed decoded text
 * as it arrives from the network. Network reads split the stream anywhere — inside a JSON payload,
 * between the `\r` and `\n` of a line ending, or inside a multi-byte character (the caller's
 * streaming TextDecoder takes care of the last one) — so all state survives between `push` calls.
 *
 * Only `data` fields matter to model APIs: `event`, `id` and `retry` are ignored, comment lines
 * (starting with `:`) are skipped, and several `data` lines of one event are joined with `\n`.
 */
export class SseDecoder {
  /** The current, not yet terminated line. */
  private line = '';
  /** `data` values of the event being assembled. */
  private data: string[] = [];
  /** The previous push ended on `\r`: a `\n` opening the next push belongs to the same line end. */
  private pendingLf = false;

  /** Feeds more text; returns the data payloads of the events it completed, in order. */
  push(text: string): string[] {
    const events: string[] = [];
    let start = 0;
    if (this.pendingLf && text.length > 0) {
      if (text.charCodeAt(0) === 10) start = 1;
      this.pendingLf = false;
    }
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      this.line += text.slice(start, i);
      this.takeLine(events);
      if (code === 13) {
        if (i + 1 === text.length) this.pendingLf = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    if (start < text.length) this.line += text.slice(start);
    return events;
  }

  /**
   * End of input. Returns the payload of an event that was cut short (data lines without the
   * terminating blank line), or undefined when the stream ended on an event boundary. The spec
   * says to drop such an event; callers decide, because a truncated JSON payload is a failure
   * worth reporting, not something to hide.
   */
  end(): string | undefined {
    const events: string[] = [];
    if (this.line.length > 0) this.takeLine(events);
    this.line = '';
    this.pendingLf = false;
    const rest = this.data.join('\n');
    this.data = [];
    return rest.length > 0 ? rest : undefined;
  }

  private takeLine(events: string[]): void {
    const line = this.line;
    this.line = '';
    if (line.length === 0) {
      // An event whose data is empty is not dispatched (spec), so `data:` alone yields nothing.
      const payload = this.data.join('\n');
      this.data = [];
      if (payload.length > 0) events.push(payload);
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    this.data.push(value);
  }
}
