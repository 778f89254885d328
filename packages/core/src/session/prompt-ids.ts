/**
 * Prompt ids as Gemini CLI forms them (`<session>########<n>`). One counter per session for
 * everything that is reported as a prompt: a message, `/compress`, a tool call the person runs.
 */
export class PromptIds {
  private count = 0;

  constructor(private readonly sessionId: string) {}

  next(): string {
    this.count += 1;
    return `${this.sessionId}########${this.count}`;
  }
}
