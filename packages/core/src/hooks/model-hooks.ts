import type { ApiCallObserver } from '../agent/chat';
import type { ContentGenerator } from '../llm/content-generator';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../llm/types';
import type { HookHalt, HookSystem } from './hook-system';
import { type HookLlmRequest, toHookRequest } from './llm-format';

/**
 * Model hooks as a ContentGenerator wrapper around the main chat's generator: BeforeModel may
 * rewrite the request or answer in the model's place, BeforeToolSelection narrows the tools,
 * AfterModel sees (and may replace) every chunk. Working at this level means the chat records
 * exactly what the hooks let through, retries re-run the hooks with the request, and one-shot
 * calls of tools and the compressor (made on the unwrapped generator) are not hooked, as in
 * Gemini CLI.
 *
 * A stop or block ends the call with a HookVerdictError; `catchHookVerdicts` turns it back into
 * a verdict where the agent client reads the chat's stream.
 */
export class HookedContentGenerator implements ContentGenerator {
  readonly provider: string;

  constructor(
    private readonly inner: ContentGenerator,
    private readonly hooks: HookSystem,
  ) {
    this.provider = inner.provider;
  }

  generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    return this.inner.generateContent(request, signal);
  }

  countTokens(request: GenerateRequest, signal: AbortSignal): Promise<CountTokensResponse> {
    return this.inner.countTokens(request, signal);
  }

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    const before = await this.hooks.beforeModel(request, signal);
    if (before.action === 'stop' || before.action === 'block') throw new HookVerdictError(before);
    if (before.action === 'respond') {
      yield before.response;
      return;
    }
    const actual = await this.hooks.beforeToolSelection(before.request, signal);
    if (!this.hooks.has('AfterModel')) {
      yield* this.inner.generateContentStream(actual, signal);
      return;
    }
    let hookRequest: HookLlmRequest | undefined;
    const view = () => {
      hookRequest ??= toHookRequest(actual);
      return hookRequest;
    };
    for await (const chunk of this.inner.generateContentStream(actual, signal)) {
      const after = await this.hooks.afterModel(view, chunk, signal);
      if (after.action === 'stop' || after.action === 'block') throw new HookVerdictError(after);
      yield after.chunk;
    }
  }
}

/**
 * A model hook stopped the agent or blocked the call. Not retryable (no status or network code),
 * and its message is fixed: a hook's reason must not look like a quota error that would switch
 * the chat to its fallback model.
 */
export class HookVerdictError extends Error {
  override readonly name = 'HookVerdictError';

  constructor(readonly verdict: HookHalt) {
    super('A model hook ended the request.');
  }
}

/**
 * Passes a chat stream through; a HookVerdictError ends it quietly and its verdict is put in
 * `into.verdict` for the caller to act on. Any other error passes on unchanged.
 */
export async function* catchHookVerdicts<T>(
  stream: AsyncGenerator<T>,
  into: { verdict?: HookHalt },
): AsyncGenerator<T> {
  try {
    yield* stream;
  } catch (error) {
    if (!(error instanceof HookVerdictError)) throw error;
    into.verdict = error.verdict;
  }
}

/** Session stats without the "errors" of requests a hook ended: no API call failed there. */
export function ignoreHookVerdicts(observer: ApiCallObserver): ApiCallObserver {
  return {
    onApiResponse: (info) => observer.onApiResponse(info),
    onApiError: (info) => {
      if (info.errorType !== 'HookVerdictError') observer.onApiError(info);
    },
  };
}
