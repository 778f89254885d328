import type { ApiCallObserver } from '../agent/chat';
import type { Telemetry } from './telemetry';

/** Reports model requests to telemetry. */
export function telemetryApiObserver(telemetry: Telemetry): ApiCallObserver {
  return {
    onApiResponse({ model, durationMs, usage, promptId }) {
      const prompt = usage?.promptTokenCount ?? 0;
      const cached = usage?.cachedContentTokenCount ?? 0;
      telemetry.apiResponse({
        model,
        promptId,
        durationMs,
        usage: {
          input: Math.max(0, prompt - cached),
          output: usage?.candidatesTokenCount ?? 0,
          cached,
          thoughts: usage?.thoughtsTokenCount ?? 0,
          tool: usage?.toolUsePromptTokenCount ?? 0,
          total: usage?.totalTokenCount ?? 0,
        },
      });
    },
    onApiError({ model, durationMs, errorType, promptId }) {
      telemetry.apiError({ model, promptId, durationMs, errorType });
    },
  };
}

/** One observer that tells several. */
export function fanOut(...observers: ApiCallObserver[]): ApiCallObserver {
  return {
    onApiResponse: (info) => {
      for (const observer of observers) observer.onApiResponse(info);
    },
    onApiError: (info) => {
      for (const observer of observers) observer.onApiError(info);
    },
  };
}
