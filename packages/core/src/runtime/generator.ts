import { join } from 'node:path';
import { kodoHome } from '../config/paths';
import type { Settings } from '../config/settings';
import type { ContentGenerator } from '../contracts/content-generator';
import type { ContextWindowSource } from '../llm/context-windows';
import type { Effort } from '../llm/effort';
import { BUILTIN_CATALOGUE, type ModelCatalogue } from '../llm/models';
import { catalogueWithOverrides } from '../llm/providers/model-catalogue';
import {
  missingKeyMessage,
  ProviderConfigError,
  type ProviderProfileSettings,
  ProviderResolver,
  type SamplingSettings,
  UnknownProviderError,
} from '../llm/providers/registry';
import { ProviderRouter } from '../llm/providers/router';
import type { TransportTimeouts } from '../llm/providers/transport-limits';
import type { RecordingContentGenerator } from '../llm/recording';
import { loadReplayGenerators } from '../on-demand';
import { unsupportedSignInMessage } from './google-sign-in';
import { RuntimeSetupError } from './setup-error';

export interface GeneratorChoice {
  fakeResponses: string | undefined;
  fakeResponsesStrict: boolean;
  recordResponses: string | undefined;
  debug: boolean;
  sessionId: string;
  env: NodeJS.ProcessEnv;
  /** The model spec (`provider:model` or a bare id): picks the provider and whose key is needed. */
  model: string;
  /** `providers` profiles from settings. */
  providers?: Record<string, ProviderProfileSettings> | undefined;
  /** How long the transports wait for the model (`model.requestTimeoutMs`, `model.streamIdleTimeoutMs`). */
  timeouts?: TransportTimeouts | undefined;
  /** `model.temperature`, `model.topP`, … (profiles add their own). */
  sampling?: SamplingSettings | undefined;
  /** `model.effort` (a profile's own wins) and `--effort` (wins over all). */
  effort?: Effort | undefined;
  effortOverride?: Effort | undefined;
  /** A local model's context is too small, or its server cut the prompt (said once each). */
  onWarning?: (message: string) => void;
}

export interface BuiltGenerator {
  generator: ContentGenerator;
  /** Context windows local servers report; absent when replaying `--fake-responses`. */
  contextWindows?: ContextWindowSource;
  /** The model catalogue with the settings' `modelOverrides` applied; absent: the built-in one. */
  models?: ModelCatalogue;
  /** The model spec with provider defaults filled in (`-m openai` → `openai:gpt-5`). */
  model: string;
  /** Where `--debug` writes its log, when on. */
  debugLogPath?: string;
  /** Resolves once recordings are on disk. */
  flush(): Promise<void>;
}

/**
 * The model backend for this run: the fake (replaying `--fake-responses`) or the provider router
 * (each request goes to the provider its model spec names, so `/model` can switch provider),
 * wrapped for `--record-responses` and `--debug`. Without the model's key this fails (`auth`)
 * naming the variable; a broken `providers` profile is a `config` failure.
 */
export async function buildGenerator(choice: GeneratorChoice): Promise<BuiltGenerator> {
  let generator: ContentGenerator;
  let contextWindows: ContextWindowSource | undefined;
  let models: ModelCatalogue;
  let model = choice.model;
  // Only these flags need them: loaded on demand (llm/replay.ts).
  const replay =
    choice.fakeResponses || choice.recordResponses || choice.debug ? await loadReplayGenerators() : undefined;
  if (choice.fakeResponses && replay) {
    try {
      generator = replay.FakeContentGenerator.fromFile(choice.fakeResponses, {
        strict: choice.fakeResponsesStrict,
      });
    } catch (error) {
      throw new RuntimeSetupError((error as Error).message, 'input');
    }
    models = replayCatalogue(choice);
  } else {
    const router = providerRouter(choice);
    ({ model } = router);
    generator = router.generator;
    contextWindows = router.generator.contextWindows;
    models = router.generator.models;
  }
  let recorder: RecordingContentGenerator | undefined;
  if (choice.recordResponses && replay) {
    recorder = new replay.RecordingContentGenerator(generator, choice.recordResponses);
    generator = recorder;
  }
  let debugLogPath: string | undefined;
  if (choice.debug && replay) {
    debugLogPath = join(kodoHome(choice.env), 'logs', `debug-${choice.sessionId}.jsonl`);
    generator = new replay.LoggingContentGenerator(generator, debugLogPath);
  }
  return {
    generator,
    model,
    models,
    ...(contextWindows ? { contextWindows } : {}),
    ...(debugLogPath ? { debugLogPath } : {}),
    flush: async () => {
      await recorder?.flush();
    },
  };
}

/** The waiting limits from settings; a value that is not a number ≥ 0 is ignored. */
export function modelTimeouts(settings: Settings): TransportTimeouts {
  const valid = (value: unknown): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0;
  const { requestTimeoutMs, streamIdleTimeoutMs } = settings.model ?? {};
  return {
    ...(valid(requestTimeoutMs) ? { firstByteMs: requestTimeoutMs } : {}),
    ...(valid(streamIdleTimeoutMs) ? { idleMs: streamIdleTimeoutMs } : {}),
  };
}

/** A replayed run prices and plans with the same overrides as a real one would. */
function replayCatalogue(choice: GeneratorChoice): ModelCatalogue {
  try {
    return catalogueWithOverrides(new ProviderResolver({ profiles: choice.providers, env: choice.env }));
  } catch {
    return BUILTIN_CATALOGUE;
  }
}

function providerRouter(choice: GeneratorChoice): { generator: ProviderRouter; model: string } {
  try {
    const resolver = new ProviderResolver({
      profiles: choice.providers,
      env: choice.env,
      timeouts: choice.timeouts,
      sampling: choice.sampling,
      effort: choice.effort,
      effortOverride: choice.effortOverride,
    });
    const { connection, spec } = resolver.resolve(choice.model);
    if (connection.missingKey) {
      // A Google sign-in or Vertex user is told why their setup does not carry over.
      const signIn = connection.name === 'gemini' ? unsupportedSignInMessage(choice.env) : undefined;
      throw new RuntimeSetupError(signIn ?? missingKeyMessage(connection), 'auth', 'AuthError');
    }
    const router = new ProviderRouter({
      resolver,
      env: choice.env,
      defaultModel: spec,
      ...(choice.onWarning ? { onWarning: choice.onWarning } : {}),
    });
    return { generator: router, model: spec };
  } catch (error) {
    if (error instanceof ProviderConfigError) throw new RuntimeSetupError(error.message, 'config');
    if (error instanceof UnknownProviderError) throw new RuntimeSetupError(error.message, 'input');
    throw error;
  }
}
