import type { ContentGenerator } from '../contracts/content-generator';
import { errorTypeName } from '../contracts/errors';
import type { ApiCallObserver } from '../contracts/observers';
import { monotonicMs } from '../utils/clock';

/**
 * A generator whose one-shot calls (`generateContent`: compression, web_fetch, the edit fixer)
 * are reported to an observer the way the chat reports its own requests, so stats, budgets and
 * telemetry count every model call a session makes, not only the conversation's.
 */
export function observeOneShotCalls(
  generator: ContentGenerator,
  observer: ApiCallObserver,
): ContentGenerator {
  return {
    provider: generator.provider,
    generateContentStream: (request, signal) => generator.generateContentStream(request, signal),
    countTokens: (request, signal) => generator.countTokens(request, signal),
    async generateContent(request, signal) {
      const started = monotonicMs();
      try {
        const response = await generator.generateContent(request, signal);
        observer.onApiResponse({
          model: request.model,
          durationMs: monotonicMs() - started,
          usage: response.usageMetadata,
        });
        return response;
      } catch (error) {
        observer.onApiError({
          model: request.model,
          durationMs: monotonicMs() - started,
          errorType: errorTypeName(error),
        });
        throw error;
      }
    },
  };
}

/**
 * A generator whose one-shot calls are marked as utility calls (compression, web_fetch, the
 * edit fixer): the router gives them the family's utility settings (little or no thinking,
 * Gemini CLI's deterministic sampling) instead of the conversation's effort.
 */
export function utilityCalls(generator: ContentGenerator): ContentGenerator {
  return {
    provider: generator.provider,
    generateContentStream: (request, signal) => generator.generateContentStream(request, signal),
    countTokens: (request, signal) => generator.countTokens(request, signal),
    generateContent: (request, signal) =>
      generator.generateContent({ ...request, config: { ...request.config, utility: true } }, signal),
  };
}
