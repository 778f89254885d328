import * as z from 'zod';
import { isAbortError } from '../../contracts/errors';
import { responseText } from '../../contracts/messages';
import { defineTool, errorMessage } from '../define-tool';
import { failure } from '../results';
import type { Tool, ToolContextFor, ToolError, ToolResult } from '../tool';
import { isBlockedAddress, isBlockedHostname } from '../web/addresses';
import {
  BlockedHostError,
  guardedLookup,
  type HostLookup,
  plainLookup,
  systemLookup,
} from '../web/guarded-lookup';
import { fetchPage } from '../web/http-fetch';
import { pageToText, shareBudget, TRUNCATION_SUFFIX } from '../web/page-text';
import { parsePromptUrls } from '../web/prompt-urls';
import { HostRateLimiter } from '../web/rate-limiter';
import { buildAnswerRequest, wrapUntrusted } from '../web/untrusted';
import { answerWithUrlContext, hasUrlContext } from '../web/url-context';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['model', 'allowPrivateNetworkFetch'] as const;
type Ctx = ToolContextFor<(typeof USES)[number]>;

export const WEB_FETCH_LIMITS = {
  maxUrls: 20,
  timeoutMs: 10_000,
  maxRedirects: 5,
  /** Raw (decompressed) bytes read per URL; HTML shrinks a lot on conversion. */
  maxResponseBytes: 10 * 1024 * 1024,
  /** Characters of page text sent to the model for all URLs together. */
  totalChars: 250_000,
  requestsPerHost: 10,
  rateWindowMs: 60_000,
} as const;

export interface WebFetchToolOptions {
  /** Host name resolution (tests pass a fake; default: the system resolver). */
  lookup?: HostLookup;
  /** Clock of the per-host rate limit. */
  now?: () => number;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

const parameters = z.object({
  prompt: z
    .string()
    .describe(
      'A prompt with up to 20 URLs (starting with http:// or https://) and instructions on what to ' +
        'do with their content, e.g. "Summarize https://example.com/article and list its key points".',
    ),
});

type Params = z.infer<typeof parameters>;

interface FetchRun {
  limiter: HostRateLimiter;
  lookup: HostLookup;
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * web_fetch with its own per-host rate limiter: one tool instance per session, so the limit
 * follows the session and nothing is shared through module state.
 */
export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool {
  const run: FetchRun = {
    limiter: new HostRateLimiter({
      maxRequests: WEB_FETCH_LIMITS.requestsPerHost,
      windowMs: WEB_FETCH_LIMITS.rateWindowMs,
      ...(options.now ? { now: options.now } : {}),
    }),
    lookup: options.lookup ?? systemLookup,
    timeoutMs: options.timeoutMs ?? WEB_FETCH_LIMITS.timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? WEB_FETCH_LIMITS.maxResponseBytes,
  };
  return defineTool({
    name: 'web_fetch',
    uses: USES,
    displayName: 'WebFetch',
    kind: 'fetch',
    description:
      'Fetches the content of up to 20 URLs given in the prompt and processes it according to the ' +
      "prompt's instructions (summarize, extract data, answer questions…). The prompt must contain " +
      'the URLs (http:// or https://) together with what to do with them. Local and private ' +
      'network addresses cannot be fetched.',
    parameters,
    validate: validatePrompt,
    describe: (params) => `Processing URLs and instructions from prompt: "${shorten(params.prompt, 100)}"`,
    async confirmationDetails(params) {
      const { urls } = parsePromptUrls(params.prompt);
      return {
        kind: 'info',
        title: 'Confirm Web Fetch',
        prompt: `${params.prompt}\n\nURLs to fetch:\n${urls.map((url) => `- ${url}`).join('\n')}`,
      };
    },
    execute: (params, ctx, { signal }) => webFetch(params, ctx, signal, run),
  });
}

function validatePrompt(params: Params): ToolError | undefined {
  if (params.prompt.trim() === '') {
    return {
      type: 'invalid_tool_params',
      message: "The 'prompt' parameter cannot be empty and must contain URL(s) and instructions.",
    };
  }
  const { urls, errors } = parsePromptUrls(params.prompt);
  if (errors.length > 0) {
    return { type: 'invalid_tool_params', message: `Error(s) in prompt URLs:\n- ${errors.join('\n- ')}` };
  }
  if (urls.length === 0) {
    return {
      type: 'web_fetch_no_url_in_prompt',
      message: "The 'prompt' must contain at least one valid URL (starting with http:// or https://).",
    };
  }
  if (urls.length > WEB_FETCH_LIMITS.maxUrls) {
    return {
      type: 'invalid_tool_params',
      message: `The 'prompt' contains ${urls.length} URLs; at most ${WEB_FETCH_LIMITS.maxUrls} can be fetched in one call.`,
    };
  }
  return undefined;
}

interface FetchedText {
  url: string;
  text: string;
}

type FetchOutcome = FetchedText | { url: string; skipped: string } | { url: string; failed: string };

async function webFetch(params: Params, ctx: Ctx, signal: AbortSignal, run: FetchRun): Promise<ToolResult> {
  const allowPrivate = ctx.allowPrivateNetworkFetch === true;
  const isRefused = (url: URL) => !allowPrivate && isPrivate(url);
  const skipped: string[] = [];
  const toFetch: string[] = [];
  for (const url of parsePromptUrls(params.prompt).urls) {
    const parsed = new URL(url);
    if (isRefused(parsed)) skipped.push(`[Blocked Host] ${url}`);
    else if (!run.limiter.tryAcquire(parsed.hostname)) skipped.push(`[Rate limit exceeded] ${url}`);
    else toFetch.push(url);
  }
  if (toFetch.length === 0) return allSkipped(skipped);

  // Gemini models read the pages through the URL-context tool first; a private address (allowed
  // by settings) is out of Google's reach, so those prompts are fetched here.
  const reachable = !toFetch.some((url) => isPrivate(new URL(url)));
  if (ctx.model && hasUrlContext(ctx.model) && reachable) {
    const primary = await answerWithUrlContext(ctx.model, params.prompt, signal);
    if (primary.kind === 'cancelled') return cancelled();
    if (primary.kind === 'answer') {
      const lines = skipped.length > 0 ? `\n${skipped.join('\n')}` : '';
      return {
        llmContent: `${skippedWarning(skipped)}${wrapUntrusted(primary.text)}`,
        returnDisplay: `Content processed from prompt.${lines}`,
      };
    }
  }

  const lookup = allowPrivate ? plainLookup(run.lookup) : guardedLookup({ lookup: run.lookup });
  const outcomes = await Promise.all(
    toFetch.map(async (url): Promise<FetchOutcome> => {
      try {
        const page = await fetchPage(url, {
          signal,
          timeoutMs: run.timeoutMs,
          maxBytes: run.maxResponseBytes,
          maxRedirects: WEB_FETCH_LIMITS.maxRedirects,
          lookup,
          isRefused,
        });
        const text = await pageToText(page);
        return { url, text: page.truncated ? text + TRUNCATION_SUFFIX : text };
      } catch (error) {
        // A host that resolved to a private address counts as skipped, like a literal one.
        if (error instanceof BlockedHostError) return { url, skipped: `[Blocked Host] ${url}` };
        return { url, failed: `${url}: ${errorMessage(error)}` };
      }
    }),
  );
  if (signal.aborted) return cancelled();
  const pages = outcomes.filter((outcome): outcome is FetchedText => 'text' in outcome);
  const failures = outcomes.flatMap((outcome) => ('failed' in outcome ? [outcome.failed] : []));
  skipped.push(...outcomes.flatMap((outcome) => ('skipped' in outcome ? [outcome.skipped] : [])));
  if (pages.length === 0) {
    if (failures.length === 0) return allSkipped(skipped);
    const also = skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : '';
    return failure(
      'web_fetch_fallback_failed',
      `All fallback fetch attempts failed: ${failures.join(', ')}${also}`,
    );
  }

  const budgeted = shareBudget(
    pages.map((page) => page.text),
    WEB_FETCH_LIMITS.totalChars,
  ).map((text, index) => ({ url: pages[index]!.url, text }));
  const warnings = [...skipped, ...failures.map((line) => `[Fetch failed] ${line}`)];
  const warning = skippedWarning(warnings);
  const summary = `Content processed from ${pages.length} URL(s).${warnings.length > 0 ? `\n${warnings.join('\n')}` : ''}`;

  if (!ctx.model) {
    // No model to answer with (some embeddings of the engine): hand the pages over as they are.
    const raw = budgeted.map((page) => `--- ${page.url} ---\n${page.text}`).join('\n\n');
    return { llmContent: `${warning}${wrapUntrusted(raw)}`, returnDisplay: summary };
  }
  let answer: string;
  try {
    const response = await ctx.model.generateContent(buildAnswerRequest(params.prompt, budgeted), signal);
    answer = responseText(response);
  } catch (error) {
    if (signal.aborted || isAbortError(error)) return cancelled();
    return failure('web_fetch_fallback_failed', `Error during fallback processing: ${errorMessage(error)}`);
  }
  if (answer.trim() === '') {
    return failure(
      'web_fetch_fallback_failed',
      'Error during fallback processing: the model returned no answer for the fetched content.',
    );
  }
  return { llmContent: `${warning}${wrapUntrusted(answer)}`, returnDisplay: summary };
}

function skippedWarning(lines: readonly string[]): string {
  return lines.length > 0 ? `[Warning] The following URLs were skipped:\n${lines.join('\n')}\n\n` : '';
}

function isPrivate(url: URL): boolean {
  return isBlockedHostname(url.hostname) || isBlockedAddress(url.hostname);
}

function allSkipped(skipped: string[]): ToolResult {
  return failure('web_fetch_processing_error', `All requested URLs were skipped: ${skipped.join(', ')}`);
}

function cancelled(): ToolResult {
  return { llmContent: 'Web fetch was cancelled.', returnDisplay: 'Web fetch was cancelled.' };
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}
