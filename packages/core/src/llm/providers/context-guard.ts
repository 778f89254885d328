/**
 * Keeps a local server from cutting kodo's prompt without anyone noticing. Ollama shortens a
 * prompt longer than the model's context from the front — the system prompt and the tool
 * declarations go first — and says nothing; llama.cpp and vLLM refuse it with an error. So,
 * once per model and kind:
 *
 * - before a request that kodo estimates to fill most of the window the server reported (or
 *   more), say so with the fix for that server;
 * - after a response whose reported prompt tokens are far fewer than kodo's estimate while
 *   close to the window (or on the first request, before any prompt cache can explain a small
 *   count), say that the server probably truncated, with the same fix.
 */
import type { GenerateRequest, UsageMetadata } from '../../contracts/messages';
import type { DiscoveredWindow, LocalServer } from './context-discovery';

/** A reported count below this share of kodo's estimate means tokens went missing. */
export const TRUNCATION_RATIO = 0.7;
/** With a known window, a truncated prompt fills at least this share of it. */
const NEAR_WINDOW_SHARE = 0.5;
/**
 * Warn from this share of the window on: the estimate is rough (a small vocabulary counts kodo's
 * prompt at ~3 characters a token, not 4), and the answer needs room too.
 */
export const CROWDED_WINDOW_SHARE = 0.75;
/** Small requests (and, with no window known, small counts) are not judged. */
const MIN_JUDGED_ESTIMATE = 1_024;

/**
 * kodo's estimate of a whole request as the server will count it: every part of the body that
 * becomes prompt text (messages, system prompt, tool declarations), ~4 characters a token.
 */
export function estimateRequestTokens(request: GenerateRequest): number {
  const chars =
    listJsonLength(request.contents) +
    (request.systemInstruction?.length ?? 0) +
    (request.tools && request.tools.length > 0 ? listJsonLength(request.tools) : 0);
  return Math.ceil(chars / 4);
}

/**
 * Serialised lengths by object: a conversation's messages are the same objects from one request
 * to the next, so each is measured once and a long session's estimate stays a sum, not a
 * re-serialisation of the whole history every turn. (A message changed in place after it was
 * measured keeps its old length: this is an estimate for a warning.)
 */
const jsonLengths = new WeakMap<object, number>();

/** `JSON.stringify(items).length`, from the lengths of the items. */
function listJsonLength(items: readonly object[]): number {
  let total = 2 + Math.max(0, items.length - 1);
  for (const item of items) {
    let length = jsonLengths.get(item);
    if (length === undefined) {
      length = JSON.stringify(item).length;
      jsonLengths.set(item, length);
    }
    total += length;
  }
  return total;
}

/** A context size worth suggesting: at least twice the request, a power of two, 16k or more. */
export function suggestedWindow(estimate: number): number {
  let size = 16_384;
  while (size < estimate * 2) size *= 2;
  return size;
}

/** How to give a model more context on each server. */
export function contextFix(server: LocalServer, model: string, size: number): string {
  switch (server) {
    case 'ollama':
      return `give it more with \`OLLAMA_CONTEXT_LENGTH=${size} ollama serve\`, or \`PARAMETER num_ctx ${size}\` in a Modelfile (\`ollama create\`) for ${model}`;
    case 'llama.cpp':
      return `restart llama-server with a larger context, e.g. \`-c ${size}\``;
    case 'vllm':
      return `restart vLLM with a larger \`--max-model-len\` (e.g. ${size})`;
  }
}

const SERVER_NAMES: Record<LocalServer, string> = {
  ollama: 'Ollama',
  'llama.cpp': 'llama-server',
  vllm: 'vLLM',
};

export class ContextGuard {
  private readonly warned = new Set<string>();
  private readonly judged = new Set<string>();

  constructor(private readonly warn: (message: string) => void) {}

  /** Before sending: the estimate (for `afterResponse`), after warning once when it cannot fit. */
  beforeRequest(
    spec: string,
    request: GenerateRequest,
    window: Partial<DiscoveredWindow> | undefined,
  ): number {
    const estimate = estimateRequestTokens(request);
    const size = window?.contextWindow;
    if (size !== undefined && estimate > CROWDED_WINDOW_SHARE * size) {
      const server = window?.server ? SERVER_NAMES[window.server] : 'the server';
      const fits = estimate > size ? 'is larger than' : 'leaves little room for an answer in';
      this.once(
        `small:${spec}`,
        `kodo's request (~${estimate} tokens by its estimate) ${fits} the ${size}-token context window ${server} gives ${spec}: ${fixFor(window?.server, request.model, estimate)}.`,
      );
    }
    return estimate;
  }

  /** After a response: the server's own prompt count against the estimate. */
  afterResponse(
    spec: string,
    request: GenerateRequest,
    estimate: number,
    usage: UsageMetadata | undefined,
    window: Partial<DiscoveredWindow> | undefined,
  ): void {
    const counted = usage?.promptTokenCount;
    if (counted === undefined || counted <= 0) return;
    const first = !this.judged.has(spec);
    this.judged.add(spec);
    if (estimate < MIN_JUDGED_ESTIMATE || counted >= TRUNCATION_RATIO * estimate) return;
    const size = window?.contextWindow;
    // A later request's small count may be a prompt cache (Ollama counts only what it evaluated);
    // with no window known, a cut prompt still fills the smallest default context (2k–4k).
    const plausible =
      size !== undefined ? counted >= NEAR_WINDOW_SHARE * size : first && counted >= MIN_JUDGED_ESTIMATE;
    if (!plausible) return;
    const where = size !== undefined ? ` of ${size} tokens` : '';
    const fix = fixFor(window?.server, request.model, estimate);
    this.once(
      `truncated:${spec}`,
      `The server counted ${counted} prompt tokens for a request kodo estimates at ~${estimate}: it probably cut the start of the conversation (the system prompt and tool declarations first) to fit ${spec}'s context window${where}. ${capitalised(fix)}.`,
    );
  }

  private once(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(message);
  }
}

function fixFor(server: LocalServer | undefined, model: string, estimate: number): string {
  return server
    ? contextFix(server, model, suggestedWindow(estimate))
    : 'give the model a larger context on the server';
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
