/**
 * A ContentGenerator that sends each request to the provider its model spec names
 * (`openai:gpt-5`, `claude-sonnet-4-5`, …; see registry.ts). Because kodo's history is in its own
 * message model, switching model mid-session (`/model`, `Chat.setModel`) is just the next request
 * going elsewhere: the history converts on the way out. Clients are created on first use and
 * kept, one per provider profile.
 *
 * For local servers (registry.ts `discovery`) the router also asks, once per model, how large a
 * context the server gives it (context-discovery.ts), offers the answer to the session
 * (`contextWindows`: compression thresholds, the compact tool profile) and watches each request
 * for a prompt that cannot fit or was cut (context-guard.ts). Cloud providers skip all of it.
 * Configured sampling (`model.temperature`… and a profile's own) fills what a request leaves unset.
 */
import type { ContentGenerator } from '../../contracts/content-generator';
import { ApiError } from '../../contracts/errors';
import type {
  Content,
  CountTokensResponse,
  GenerateRequest,
  GenerateResponse,
  Part,
} from '../../contracts/messages';
import { loadProvider } from '../../on-demand';
import { untilAborted } from '../../utils/abort';
import type { ContextWindowSource } from '../context-windows';
import { type Effort, type ThinkingFamily, thinkingPlan } from '../effort';
import type { ModelCatalogue } from '../model-info';
import { isAnthropicSignature } from './anthropic-signatures';
import type { DiscoveredWindow } from './context-discovery';
import { ContextGuard } from './context-guard';
import { catalogueWithOverrides } from './model-catalogue';
import { isOpenAIReasoningSignature } from './openai-signatures';
import { openAIWireFor } from './openai-wire';
import {
  defaultProviderRegistry,
  type ProviderConnection,
  type ProviderRegistry,
  type ProviderResolver,
  type ProviderType,
  type ResolvedModel,
} from './registry';

export interface ProviderRouterOptions {
  resolver: ProviderResolver;
  env: NodeJS.ProcessEnv;
  /** Names the `provider` of the router itself (stats, tools' model client). */
  defaultModel: string;
  registry?: ProviderRegistry;
  /** Said once each: a local model's window is too small, a server cut the prompt. */
  onWarning?: (message: string) => void;
}

interface Routed {
  client: ContentGenerator;
  routed: GenerateRequest;
  /** What the request asked of the model's thinking, to name it when the model refuses it. */
  thinking: ThinkingSent;
  /** Set for local servers: what to check around the request. */
  watch?: { spec: string; window: WatchedWindow | undefined };
}

/** What the server said, with a configured window in place of its own. */
type WatchedWindow = Partial<DiscoveredWindow>;

export class ProviderRouter implements ContentGenerator {
  private readonly clients = new Map<string, Promise<ContentGenerator>>();
  private readonly registry: ProviderRegistry;
  private readonly windows = new Map<string, Promise<DiscoveredWindow | undefined>>();
  private readonly knownWindows = new Map<string, DiscoveredWindow>();
  private readonly guard: ContextGuard;
  /** Models already told that `off` cannot stop their thinking. */
  private readonly toldCannotTurnOff = new Set<string>();
  readonly provider: string;

  constructor(private readonly options: ProviderRouterOptions) {
    this.registry = options.registry ?? defaultProviderRegistry();
    this.guard = new ContextGuard(options.onWarning ?? (() => {}));
    this.models = catalogueWithOverrides(options.resolver);
    const resolved = options.resolver.resolve(options.defaultModel);
    const initial = resolved.connection;
    this.provider = initial.name;
    // Load the default provider's client now, while the session is still being set up, rather
    // than on the path to the first request; a local server is asked about its window meanwhile.
    if (!initial.missingKey) {
      void this.client(initial);
      void this.window(resolved);
    }
  }

  /** The catalogue with the profiles' `modelOverrides` applied (budgets, `kodo models`). */
  readonly models: ModelCatalogue;

  /** The context windows local servers reported (configured ones included), for the session. */
  readonly contextWindows: ContextWindowSource = {
    known: (model) => {
      const resolved = this.tryResolve(model);
      if (!resolved) return undefined;
      return configuredWindow(resolved) ?? this.knownWindows.get(resolved.spec)?.contextWindow;
    },
    discover: async (model, signal) => {
      const resolved = this.tryResolve(model);
      if (!resolved) return undefined;
      const configured = configuredWindow(resolved);
      if (configured) return configured;
      const pending = this.window(resolved);
      if (!pending) return undefined;
      const found = await untilAborted(pending, signal, undefined);
      return found?.contextWindow;
    },
  };

  /** Resolves a spec without connecting: front ends check keys and show names with it. */
  resolve(model: string): ResolvedModel {
    return this.options.resolver.resolve(model);
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    const { client, routed, watch, thinking } = await this.route(request);
    try {
      if (!watch) return await client.generateContent(routed, signal);
      const estimate = this.guard.beforeRequest(watch.spec, routed, watch.window);
      const response = await client.generateContent(routed, signal);
      this.answered(watch, routed, estimate, response.usageMetadata);
      return response;
    } catch (error) {
      throw thinkingRefusal(error, thinking);
    }
  }

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    const { client, routed, watch, thinking } = await this.route(request);
    try {
      if (!watch) {
        yield* client.generateContentStream(routed, signal);
        return;
      }
      const estimate = this.guard.beforeRequest(watch.spec, routed, watch.window);
      let usage: GenerateResponse['usageMetadata'];
      for await (const chunk of client.generateContentStream(routed, signal)) {
        if (chunk.usageMetadata) usage = chunk.usageMetadata;
        yield chunk;
      }
      this.answered(watch, routed, estimate, usage);
    } catch (error) {
      throw thinkingRefusal(error, thinking);
    }
  }

  async countTokens(request: GenerateRequest, signal: AbortSignal): Promise<CountTokensResponse> {
    const { client, routed } = await this.route(request);
    return client.countTokens(routed, signal);
  }

  private async route(request: GenerateRequest): Promise<Routed> {
    const resolved = this.options.resolver.resolve(request.model);
    const { connection } = resolved;
    const client = this.client(connection);
    const contents = historyFor(connection.type, request.contents);
    const { config, thinking } = this.configFor(resolved, request.config);
    const routed: GenerateRequest = {
      ...request,
      model: resolved.model,
      contents,
      ...(config ? { config } : {}),
    };
    const pending = this.window(resolved);
    if (!pending) return { client: await client, routed, thinking };
    // Asked for at setup (or the first time this model is used); a local server answers at once.
    const discovered = await pending;
    const configured = configuredWindow(resolved);
    const window: WatchedWindow | undefined = configured
      ? { ...discovered, contextWindow: configured }
      : discovered;
    return { client: await client, routed, watch: { spec: resolved.spec, window }, thinking };
  }

  /**
   * The request's settings over the configured ones over what the family's own agent sends
   * (effort.ts): the effort becomes the family's thinking fields. Says once per model when `off`
   * cannot stop its thinking.
   */
  private configFor(resolved: ResolvedModel, own: GenerateRequest['config']) {
    const { connection, model } = resolved;
    const info = this.models.info(resolved.spec);
    const family = thinkingFamily(connection, model);
    const effort: Effort | undefined = own?.effort ?? connection.effort;
    const plan = thinkingPlan(
      { family, model, reasoning: info?.reasoning, maxOutputTokens: info?.maxOutputTokens },
      effort,
      { utility: own?.utility === true },
    );
    if (plan.cannotTurnOff && !this.toldCannotTurnOff.has(resolved.spec)) {
      this.toldCannotTurnOff.add(resolved.spec);
      this.options.onWarning?.(plan.cannotTurnOff);
    }
    const configured = withConfigured(resolved, own);
    const config = { ...plan.config, ...configured };
    const thinking: ThinkingSent = { provider: connection.name, model, effort, family, config };
    return { config: Object.keys(config).length > 0 ? config : undefined, thinking };
  }

  /** The server's answer about this model's window, asked once; undefined for cloud providers. */
  private window(resolved: ResolvedModel): Promise<DiscoveredWindow | undefined> | undefined {
    const { connection } = resolved;
    if (!connection.discovery || !connection.baseUrl) return undefined;
    let pending = this.windows.get(resolved.spec);
    if (!pending) {
      const { baseUrl, discovery, apiKey } = connection;
      // Loaded for local servers only: a cloud provider never asks.
      pending = loadProvider
        .contextDiscovery()
        .then(({ discoverContextWindow }) =>
          discoverContextWindow(
            { baseUrl, model: resolved.model, discovery, ...(apiKey ? { apiKey } : {}) },
            new AbortController().signal,
          ),
        )
        .catch(() => undefined);
      pending.then((found) => {
        if (found) this.knownWindows.set(resolved.spec, found);
      });
      this.windows.set(resolved.spec, pending);
    }
    return pending;
  }

  private answered(
    watch: NonNullable<Routed['watch']>,
    routed: GenerateRequest,
    estimate: number,
    usage: GenerateResponse['usageMetadata'],
  ): void {
    this.guard.afterResponse(watch.spec, routed, estimate, usage, watch.window);
    // An Ollama model that was not loaded had no window to report; loaded now, it has one.
    if (watch.window?.server === 'ollama' && watch.window.contextWindow === undefined) {
      this.windows.delete(watch.spec);
    }
  }

  private tryResolve(model: string): ResolvedModel | undefined {
    try {
      return this.options.resolver.resolve(model);
    } catch {
      return undefined;
    }
  }

  private client(connection: ProviderConnection): Promise<ContentGenerator> {
    let client = this.clients.get(connection.name);
    if (!client) {
      client = this.registry.create(connection, this.options.env);
      this.clients.set(connection.name, client);
      // A failed creation (missing key) is not kept: the user may fix it and switch back.
      client.catch(() => this.clients.delete(connection.name));
    }
    return client;
  }
}

/**
 * The request's generation settings over the configured ones: the profile's sampling, and for
 * Anthropic (which needs `max_tokens` on every request) a model's `maxOutputTokens` override in
 * place of the catalogue's limit. Unchanged when nothing is configured.
 */
function withConfigured({ connection, model }: ResolvedModel, own: GenerateRequest['config']) {
  const limit =
    connection.type === 'anthropic' ? connection.modelOverrides?.[model]?.maxOutputTokens : undefined;
  if (!connection.sampling && limit === undefined) return own;
  return { ...(limit !== undefined ? { maxOutputTokens: limit } : {}), ...connection.sampling, ...own };
}

interface ThinkingSent {
  provider: string;
  model: string;
  effort: Effort | undefined;
  family: ThinkingFamily;
  config: NonNullable<GenerateRequest['config']>;
}

function thinkingFamily(connection: ProviderConnection, model: string): ThinkingFamily {
  if (connection.type !== 'openai') return connection.type;
  return openAIWireFor(connection.baseUrl, model, connection.wireApi) === 'responses'
    ? 'openai-responses'
    : 'openai-chat';
}

const THINKING_WORDS = /thinking|reasoning|budget_tokens|thinkingBudget|thinking_?level|effort/i;

/**
 * A 400 that names thinking or reasoning: the model refused the thinking setting kodo sent.
 * The error then says, in one line, what was sent and which setting changes it.
 */
export function thinkingRefusal(error: unknown, sent: ThinkingSent): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || !THINKING_WORDS.test(error.message))
    return error;
  const { config } = sent;
  const what =
    config.reasoningEffort !== undefined
      ? `reasoning effort "${config.reasoningEffort}"`
      : config.thinkingLevel !== undefined
        ? `thinking level ${config.thinkingLevel}`
        : config.thinkingBudget !== undefined
          ? `a thinking budget of ${config.thinkingBudget} tokens`
          : 'its thinking settings';
  const effort = sent.effort ? `effort ${sent.effort}` : 'the default effort';
  const message =
    `${sent.model} refused ${what} (${effort}): ${error.message.split('\n')[0]} — ` +
    `choose another with --effort, /effort or model.effort (providers.${sent.provider}.effort for this provider)` +
    (sent.family === 'anthropic' || sent.family === 'openai-responses'
      ? `, or providers.${sent.provider}.modelOverrides.${sent.model}.reasoning: false if it cannot think.`
      : '.');
  return new ApiError(message, { status: 400 });
}

/** The window settings give a model: its own override, else its profile's `contextWindow`. */
function configuredWindow({ connection, model }: ResolvedModel): number | undefined {
  return connection.modelOverrides?.[model]?.contextWindow ?? connection.contextWindow;
}

/**
 * What the target protocol must not receive from another provider's turns. The OpenAI and
 * Anthropic converters already skip foreign thoughts and signatures; Gemini's client sends the
 * history as is, so Anthropic signatures, redacted thinking and OpenAI's encrypted reasoning are
 * removed here.
 */
export function historyFor(type: ProviderType, contents: Content[]): Content[] {
  if (type !== 'gemini') return contents;
  const foreign = (signature: string | undefined) =>
    isAnthropicSignature(signature) || isOpenAIReasoningSignature(signature);
  if (!contents.some((content) => content.parts.some((part) => foreign(part.thoughtSignature)))) {
    return contents;
  }
  return contents.map((content) => ({
    ...content,
    parts: content.parts.flatMap((part): Part[] => {
      if (!foreign(part.thoughtSignature)) return [part];
      const { thoughtSignature: _dropped, ...rest } = part;
      return rest.text === '' && !rest.functionCall ? [] : [rest];
    }),
  }));
}
