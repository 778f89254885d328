/**
 * Which provider serves a model, and how to reach it.
 *
 * A model spec is `provider:model` (`openai:gpt-5`, `anthropic:claude-sonnet-4-5`,
 * `ollama:qwen3-coder:30b`: only the first colon splits), a provider name alone (its default
 * model), or a bare model id whose provider is inferred (`gpt-…`/`o3` → openai, `claude-…` →
 * anthropic, otherwise gemini). Providers are the built-ins below plus the `providers` profiles of
 * settings (`providers.<name>: {type, baseUrl, apiKeyEnv, models}`); a profile with a built-in's
 * name adjusts that built-in.
 *
 * The registry maps a wire protocol (`gemini`, `openai`, `anthropic`) to a factory that imports
 * its client on first use, so a run only loads the providers it talks to.
 */

import type { ModelOverrideSettings, ProviderProfileSettings } from '../../config/settings-types';
import type { ContentGenerator } from '../../contracts/content-generator';
import { AuthError } from '../../contracts/errors';
import type { GenerationConfig } from '../../contracts/messages';
import { loadProvider } from '../../on-demand';
import { type Effort, isEffort } from '../effort';
import { modelInfo } from '../models';
import { checkedHeaders, parseHeaderLines } from './custom-headers';
import { GeminiContentGenerator } from './gemini';
import { OPENAI_WIRE_APIS, type OpenAIWireApi } from './openai-wire';
import { ProviderConfigError } from './provider-config-error';
import type { TransportTimeouts } from './transport-limits';

export type ProviderType = 'gemini' | 'openai' | 'anthropic';
export const PROVIDER_TYPES: readonly ProviderType[] = ['gemini', 'openai', 'anthropic'];

export type { ProviderProfileSettings } from '../../config/settings-types';

/** The `toolChoice` values a profile may set. */
export type ToolChoice = 'auto' | 'required';
const TOOL_CHOICES: readonly ToolChoice[] = ['auto', 'required'];

interface BuiltinProvider {
  type: ProviderType;
  /** Variables tried in order for the key; absent = the server needs none. */
  apiKeyEnv?: string[];
  baseUrl?: string;
  /** Variable that overrides the base URL. */
  baseUrlEnv?: string;
  defaultModel?: string;
  /** OpenAI pointed at another server (`OPENAI_BASE_URL`) may need no key. */
  keyOptionalWithCustomUrl?: boolean;
  toolChoice?: ToolChoice;
  /** Variable holding extra headers, one `Name: value` a line (custom-headers.ts). */
  headersEnv?: string;
}

export const BUILTIN_PROVIDERS: Readonly<Record<string, BuiltinProvider>> = {
  gemini: {
    type: 'gemini',
    apiKeyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    baseUrlEnv: 'GOOGLE_GEMINI_BASE_URL',
    defaultModel: 'gemini-2.5-pro',
  },
  openai: {
    type: 'openai',
    apiKeyEnv: ['OPENAI_API_KEY'],
    baseUrlEnv: 'OPENAI_BASE_URL',
    defaultModel: 'gpt-5',
    keyOptionalWithCustomUrl: true,
  },
  anthropic: {
    type: 'anthropic',
    apiKeyEnv: ['ANTHROPIC_API_KEY'],
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    defaultModel: 'claude-sonnet-4-5',
    // Claude Code's variable: a gateway's headers come along for those who switch.
    headersEnv: 'ANTHROPIC_CUSTOM_HEADERS',
  },
  ollama: {
    type: 'openai',
    baseUrl: 'http://localhost:11434/v1',
    baseUrlEnv: 'OLLAMA_BASE_URL',
    defaultModel: 'qwen3-coder',
  },
  openrouter: {
    type: 'openai',
    apiKeyEnv: ['OPENROUTER_API_KEY'],
    baseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: 'anthropic/claude-sonnet-4.5',
  },
};

export const DEFAULT_PROVIDER = 'gemini';

/** The sampling settings kodo sends when configured (`model.*` and a profile's own). */
export type SamplingSettings = Pick<GenerationConfig, 'temperature' | 'topP' | 'topK' | 'maxOutputTokens'>;

/**
 * How to ask a server for a model's context window (context-discovery.ts): `ollama` for the
 * built-in Ollama provider, `openai-compatible` for any other OpenAI-type server that is not
 * OpenAI's or OpenRouter's (llama.cpp, vLLM, LM Studio, an Ollama behind a profile). Cloud
 * providers are never asked, so their requests wait for nothing.
 */
export type ContextDiscovery = 'ollama' | 'openai-compatible';

/** A provider ready to connect to. */
export interface ProviderConnection {
  /** Profile name: `openai`, `ollama`, a settings profile… (used in logs and stats). */
  name: string;
  type: ProviderType;
  apiKey?: string;
  /** The variables that could hold the key, for error messages; empty when none is needed. */
  apiKeyEnv: string[];
  /** Set when a key is needed and none was found. */
  missingKey: boolean;
  baseUrl?: string;
  /** What to check when nothing answers at the base URL, naming where it was set. */
  unreachableHint: string;
  /** Waiting limits of the lean transports (`model.requestTimeoutMs`, `model.streamIdleTimeoutMs`). */
  timeouts?: TransportTimeouts;
  /** `required`: the first request of each user turn must call a tool (OpenAI-compatible only). */
  toolChoice?: ToolChoice;
  /** Sampling for every request (`model.*` settings, then the profile's own). */
  sampling?: SamplingSettings;
  /** `providers.<name>.contextWindow`: wins over what the server says. */
  contextWindow?: number;
  /** `providers.<name>.modelOverrides`: per model id, what wins over the catalogue. */
  modelOverrides?: Record<string, ModelOverrideSettings>;
  /** Whether and how to ask the server for the model's context window. */
  discovery?: ContextDiscovery;
  /** `--effort`, else the profile's `effort`, else `model.effort`; absent = the vendor's default. */
  effort?: Effort;
  /** `providers.<name>.wireApi` (OpenAI type only): Responses or Chat Completions for every model. */
  wireApi?: OpenAIWireApi;
  /** Extra headers on every model request (custom-headers.ts); values are secrets, never logged. */
  headers?: Record<string, string>;
}

export interface ResolvedModel {
  connection: ProviderConnection;
  /** The id the provider's API expects (no provider prefix). */
  model: string;
  /** The spec as kodo keeps it: `provider:model`, or the bare id when the provider was inferred. */
  spec: string;
}

export { ProviderConfigError };

/** A spec whose `provider:` prefix names no built-in provider or settings profile (exit 42). */
export class UnknownProviderError extends Error {
  override readonly name = 'UnknownProviderError';
  constructor(
    readonly provider: string,
    readonly known: readonly string[],
  ) {
    super(`Unknown provider '${provider}' (known: ${known.join(', ')}).`);
  }
}

export interface ProviderResolverOptions {
  profiles?: Record<string, ProviderProfileSettings> | undefined;
  env: NodeJS.ProcessEnv;
  timeouts?: TransportTimeouts | undefined;
  /** `model.temperature`, `model.topP`, `model.topK`, `model.maxOutputTokens`. */
  sampling?: SamplingSettings | undefined;
  /** `model.effort`: a profile's own `effort` wins over it. */
  effort?: Effort | undefined;
  /** `--effort`: wins over every profile's. */
  effortOverride?: Effort | undefined;
}

interface Profile extends BuiltinProvider {
  name: string;
  models: string[];
  sampling?: SamplingSettings;
  contextWindow?: number;
  modelOverrides?: Record<string, ModelOverrideSettings>;
  keyOptional?: boolean;
  effort?: Effort;
  wireApi?: OpenAIWireApi;
  /** `providers.<name>.headers`, checked. */
  headers?: Record<string, string>;
  /** The base URL came from `providers.<name>.baseUrl` in settings. */
  baseUrlFromSettings?: boolean;
}

const OPENAI_FAMILY = /^(gpt-|chatgpt-|codex-|o\d)/i;
const ANTHROPIC_FAMILY = /^claude-/i;

/** Resolves model specs against the built-in providers and the settings profiles. */
export class ProviderResolver {
  private readonly profiles = new Map<string, Profile>();
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeouts: TransportTimeouts | undefined;
  private readonly sampling: SamplingSettings;
  private readonly effort: Effort | undefined;
  private readonly effortOverride: Effort | undefined;

  constructor(options: ProviderResolverOptions) {
    this.env = options.env;
    this.effort = options.effort;
    this.effortOverride = options.effortOverride;
    this.timeouts = options.timeouts;
    this.sampling = definedOnly(options.sampling ?? {});
    for (const [name, builtin] of Object.entries(BUILTIN_PROVIDERS)) {
      this.profiles.set(name, { ...builtin, name, models: [] });
    }
    for (const [name, settings] of Object.entries(options.profiles ?? {})) {
      this.profiles.set(name, mergeProfile(name, this.profiles.get(name), settings));
    }
  }

  /** Provider names a spec may start with. */
  names(): string[] {
    return [...this.profiles.keys()];
  }

  resolve(spec: string): ResolvedModel {
    const trimmed = spec.trim();
    const colon = trimmed.indexOf(':');
    const prefix = colon > 0 ? trimmed.slice(0, colon) : trimmed;
    const named = this.profiles.get(prefix) ?? this.profiles.get(prefix.toLowerCase());
    if (named) {
      const rest = colon > 0 ? trimmed.slice(colon + 1).trim() : '';
      const model = rest || named.models[0] || named.defaultModel;
      if (!model) {
        throw new ProviderConfigError(
          `Provider "${named.name}" has no default model: name one, e.g. -m ${named.name}:<model>.`,
        );
      }
      return { connection: this.connect(named), model, spec: `${named.name}:${model}` };
    }
    // No model id kodo infers a provider for has a colon (Gemini's never do); one that a profile
    // lists (an Ollama tag like `qwen3:8b`) is its own. Anything else before a colon is a typo
    // that would otherwise reach Gemini as a model name.
    const listed = [...this.profiles.values()].some((profile) => profile.models.includes(trimmed));
    if (colon > 0 && !listed) throw new UnknownProviderError(prefix, this.names());
    const profile = this.inferProfile(trimmed);
    return { connection: this.connect(profile), model: trimmed, spec: trimmed };
  }

  private inferProfile(model: string): Profile {
    for (const profile of this.profiles.values()) {
      if (profile.models.includes(model)) return profile;
    }
    const fromTable = modelInfo(model)?.provider;
    const type =
      fromTable ??
      (OPENAI_FAMILY.test(model) ? 'openai' : ANTHROPIC_FAMILY.test(model) ? 'anthropic' : undefined);
    return this.profiles.get(type ?? DEFAULT_PROVIDER) as Profile;
  }

  private connect(profile: Profile): ProviderConnection {
    const envUrl = profile.baseUrlEnv ? this.env[profile.baseUrlEnv]?.trim() : undefined;
    const baseUrl = envUrl || profile.baseUrl;
    const apiKeyEnv = profile.apiKeyEnv ?? [];
    const apiKey = apiKeyEnv
      .map((name) => this.env[name])
      .find((value) => value !== undefined && value !== '');
    const keyOptional =
      apiKeyEnv.length === 0 ||
      profile.keyOptional === true ||
      (profile.keyOptionalWithCustomUrl === true && Boolean(envUrl));
    return {
      name: profile.name,
      type: profile.type,
      apiKeyEnv,
      missingKey: apiKey === undefined && !keyOptional,
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      unreachableHint: unreachableHint(profile, Boolean(envUrl)),
      ...(this.timeouts ? { timeouts: this.timeouts } : {}),
      ...(profile.toolChoice ? { toolChoice: profile.toolChoice } : {}),
      ...samplingOf(this.sampling, profile.sampling),
      ...(profile.contextWindow ? { contextWindow: profile.contextWindow } : {}),
      ...(profile.modelOverrides ? { modelOverrides: profile.modelOverrides } : {}),
      ...discoveryOf(profile, baseUrl),
      ...effortOf(this.effortOverride ?? profile.effort ?? this.effort),
      ...(profile.wireApi ? { wireApi: profile.wireApi } : {}),
      ...this.headersOf(profile),
    };
  }

  /** The variable's headers, then the settings' (which win on a name both set). */
  private headersOf(profile: Profile): { headers?: Record<string, string> } {
    const fromEnv = profile.headersEnv ? this.env[profile.headersEnv] : undefined;
    const headers = {
      ...(fromEnv && profile.headersEnv ? parseHeaderLines(fromEnv, profile.headersEnv) : {}),
      ...profile.headers,
    };
    return Object.keys(headers).length > 0 ? { headers } : {};
  }
}

function effortOf(effort: Effort | undefined): { effort?: Effort } {
  return effort ? { effort } : {};
}

function definedOnly(sampling: SamplingSettings): SamplingSettings {
  return Object.fromEntries(Object.entries(sampling).filter(([, value]) => value !== undefined));
}

/** A profile's own sampling values win over the `model.*` ones; nothing when none is set. */
function samplingOf(
  global: SamplingSettings,
  own: SamplingSettings | undefined,
): { sampling?: SamplingSettings } {
  const sampling = { ...global, ...own };
  return Object.keys(sampling).length > 0 ? { sampling } : {};
}

const CLOUD_OPENAI_COMPATIBLE = /^https:\/\/(api\.openai\.com|openrouter\.ai)(\/|$)/i;

function discoveryOf(profile: Profile, baseUrl: string | undefined): { discovery?: ContextDiscovery } {
  if (profile.type !== 'openai' || !baseUrl) return {};
  if (profile.name === 'ollama') return { discovery: 'ollama' };
  return CLOUD_OPENAI_COMPATIBLE.test(baseUrl) ? {} : { discovery: 'openai-compatible' };
}

/** What to check when nothing answers, naming where the URL came from so it can be changed. */
function unreachableHint(profile: Profile, fromEnv: boolean): string {
  let change: string;
  if (fromEnv) change = `change ${profile.baseUrlEnv}`;
  else if (profile.baseUrlFromSettings) change = `change providers.${profile.name}.baseUrl in settings`;
  else if (profile.baseUrlEnv) change = `set ${profile.baseUrlEnv}`;
  else change = `set providers.${profile.name}.baseUrl in settings`;
  if (profile.name === 'ollama') return `start Ollama or ${change}`;
  // The built-in default endpoints are public services: the network is the likely culprit.
  if (!fromEnv && !profile.baseUrlFromSettings) return `check your network connection, or ${change}`;
  return `check that the server is running, or ${change}`;
}

function mergeProfile(name: string, base: Profile | undefined, settings: ProviderProfileSettings): Profile {
  if (!settings || typeof settings !== 'object') {
    throw new ProviderConfigError(`Settings providers.${name} must be an object.`);
  }
  const type = settings.type ?? base?.type;
  if (!type || !PROVIDER_TYPES.includes(type as ProviderType)) {
    throw new ProviderConfigError(
      `Settings providers.${name}.type must be one of ${PROVIDER_TYPES.join(', ')} (got ${JSON.stringify(settings.type)}).`,
    );
  }
  const models = Array.isArray(settings.models) ? settings.models.filter((m) => typeof m === 'string') : [];
  const profile: Profile = { ...(base ?? {}), name, type: type as ProviderType, models };
  const baseUrl =
    typeof settings.baseUrl === 'string' && settings.baseUrl !== '' ? settings.baseUrl : undefined;
  if (baseUrl) {
    profile.baseUrl = baseUrl;
    profile.baseUrlFromSettings = true;
  }
  // A profile's own key variable replaces the built-in's; a new profile without one needs no key.
  if (typeof settings.apiKeyEnv === 'string' && settings.apiKeyEnv !== '')
    profile.apiKeyEnv = [settings.apiKeyEnv];
  // Moving the built-in OpenAI provider to another server makes the key optional, as OPENAI_BASE_URL does.
  if (baseUrl && base?.keyOptionalWithCustomUrl) profile.keyOptional = true;
  if (settings.toolChoice !== undefined) {
    if (!TOOL_CHOICES.includes(settings.toolChoice as ToolChoice)) {
      throw new ProviderConfigError(
        `Settings providers.${name}.toolChoice must be one of ${TOOL_CHOICES.join(', ')} (got ${JSON.stringify(settings.toolChoice)}).`,
      );
    }
    if (profile.type !== 'openai') {
      throw new ProviderConfigError(
        `Settings providers.${name}.toolChoice applies only to type "openai" profiles (this one is "${profile.type}").`,
      );
    }
    profile.toolChoice = settings.toolChoice as ToolChoice;
  }
  // Checked by the settings schema; a profile built in code may still carry anything.
  const own = definedOnly({
    temperature: numberOrUndefined(settings.temperature),
    topP: numberOrUndefined(settings.topP),
    topK: numberOrUndefined(settings.topK),
  });
  if (Object.keys(own).length > 0) profile.sampling = own;
  const window = numberOrUndefined(settings.contextWindow);
  if (window !== undefined && window > 0) profile.contextWindow = Math.floor(window);
  if (settings.modelOverrides && typeof settings.modelOverrides === 'object') {
    profile.modelOverrides = settings.modelOverrides;
  }
  if (settings.effort !== undefined) {
    if (!isEffort(settings.effort)) {
      throw new ProviderConfigError(
        `Settings providers.${name}.effort must be one of off, low, medium, high, max (got ${JSON.stringify(settings.effort)}).`,
      );
    }
    profile.effort = settings.effort;
  }
  if (settings.wireApi !== undefined) {
    if (!OPENAI_WIRE_APIS.includes(settings.wireApi as OpenAIWireApi) || profile.type !== 'openai') {
      throw new ProviderConfigError(
        `Settings providers.${name}.wireApi must be "responses" or "chat", on a type "openai" profile (got ${JSON.stringify(settings.wireApi)} on "${profile.type}").`,
      );
    }
    profile.wireApi = settings.wireApi as OpenAIWireApi;
  }
  if (settings.headers !== undefined) {
    if (!settings.headers || typeof settings.headers !== 'object' || Array.isArray(settings.headers))
      throw new ProviderConfigError(`Settings providers.${name}.headers must be an object of strings.`);
    profile.headers = {
      ...base?.headers,
      ...checkedHeaders(settings.headers, `Settings providers.${name}.headers`),
    };
  }
  return profile;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The message for a missing key, naming the variable to set. */
export function missingKeyMessage(connection: ProviderConnection): string {
  const [first, ...others] = connection.apiKeyEnv;
  const alternatives = others.length > 0 ? ` (or ${others.join(', ')})` : '';
  return `No API key found for provider "${connection.name}". Set ${first}${alternatives}, e.g. \`export ${first}=…\`, then run kodo again.`;
}

export type ProviderFactory = (
  connection: ProviderConnection,
  env: NodeJS.ProcessEnv,
) => Promise<ContentGenerator>;

/**
 * Wire protocol → client factory. Each factory imports its client when first called, so a run
 * loads only the clients of the providers it talks to.
 */
export class ProviderRegistry {
  private readonly factories = new Map<ProviderType, ProviderFactory>();

  register(type: ProviderType, factory: ProviderFactory): this {
    this.factories.set(type, factory);
    return this;
  }

  async create(connection: ProviderConnection, env: NodeJS.ProcessEnv): Promise<ContentGenerator> {
    if (connection.missingKey) throw new AuthError(missingKeyMessage(connection));
    const factory = this.factories.get(connection.type);
    if (!factory) throw new ProviderConfigError(`No client registered for provider type ${connection.type}.`);
    return factory(connection, env);
  }
}

function headersOf(connection: ProviderConnection): { headers?: Record<string, string> } {
  return connection.headers ? { headers: connection.headers } : {};
}

function transportOptionsOf(connection: ProviderConnection) {
  return {
    unreachableHint: connection.unreachableHint,
    ...(connection.timeouts ? { timeouts: connection.timeouts } : {}),
  };
}

export function defaultProviderRegistry(): ProviderRegistry {
  return new ProviderRegistry()
    .register('gemini', async (c) => {
      return new GeminiContentGenerator({
        apiKey: c.apiKey ?? '',
        transportOptions: transportOptionsOf(c),
        ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}),
        ...headersOf(c),
      });
    })
    .register('openai', async (c) => {
      const { OpenAIContentGenerator } = await loadProvider.openai();
      return new OpenAIContentGenerator({
        providerName: c.name,
        transportOptions: transportOptionsOf(c),
        ...(c.apiKey ? { apiKey: c.apiKey } : {}),
        ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}),
        ...(c.toolChoice ? { toolChoice: c.toolChoice } : {}),
        ...(c.wireApi ? { wireApi: c.wireApi } : {}),
        ...headersOf(c),
      });
    })
    .register('anthropic', async (c) => {
      const { AnthropicContentGenerator } = await loadProvider.anthropic();
      return new AnthropicContentGenerator({
        providerName: c.name,
        transportOptions: transportOptionsOf(c),
        apiKey: c.apiKey ?? '',
        ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}),
        ...headersOf(c),
      });
    });
}
