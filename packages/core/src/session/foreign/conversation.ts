import type { Content, Part } from '../../contracts/messages';

/**
 * Builds kodo's history from another tool's messages in order: parts join the current turn while
 * the role stays the same, and a call's name is remembered by its id, since the tools record a
 * result with the id of its call only.
 */
export class ConversationBuilder {
  readonly history: Content[] = [];
  private readonly callNames = new Map<string, string>();

  user(parts: Part[]): void {
    this.add('user', parts);
  }

  model(parts: Part[]): void {
    for (const part of parts) {
      const call = part.functionCall;
      if (call?.id) this.callNames.set(call.id, call.name);
    }
    this.add('model', parts);
  }

  /** A call's result as a function response, under the name its call had. */
  result(callId: string, text: string, options: { isError: boolean; media?: Part[] }): void {
    const name = this.callNames.get(callId) ?? 'unknown_tool';
    const response = options.isError ? { error: text } : { output: text };
    this.user([{ functionResponse: { id: callId, name, response } }, ...(options.media ?? [])]);
  }

  private add(role: Content['role'], parts: Part[]): void {
    if (parts.length === 0) return;
    const last = this.history.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else this.history.push({ role, parts: [...parts] });
  }
}

/** An image given inline as base64, as kodo's message model holds it. */
export function inlineImage(mimeType: string, data: string): Part {
  return { inlineData: { mimeType, data } };
}

/** An image from a `data:` URL; other URLs become a line of text (nothing is fetched). */
export function imageFromUrl(url: string): Part {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? inlineImage(match[1]!, match[2]!) : { text: `[image: ${url}]` };
}

/**
 * Whether a user text is only the tool's own context rather than something the person typed: one
 * or more blocks like `<environment_context>…</environment_context>` (an environment preamble, a
 * system reminder, a slash command's wrapper). Tag names with `_` or `-` only, so a prompt that
 * is plain HTML stays a prompt.
 */
export function isWrappedContext(text: string): boolean {
  return /^(?:\s*<([A-Za-z][\w]*[_-][\w-]*)(?:\s[^>]*)?>[\s\S]*?<\/\1>)+\s*$/.test(text);
}
