import type { Settings } from '../config/settings';
import { type ProviderProfileSettings, ProviderResolver } from '../llm/providers/registry';
import { RuntimeSetupError } from './setup-error';

/**
 * The auth type this run would use, in Gemini CLI's names for the Gemini provider (from the
 * environment, as Gemini CLI decides it: `oauth-personal`, `vertex-ai`, `gemini-api-key`), and
 * the provider's profile name (`openai`, `anthropic`, `ollama`, a settings profile) for the others.
 * Undefined when nothing is configured.
 */
export function currentAuthType(
  model: string,
  env: NodeJS.ProcessEnv,
  providers: Record<string, ProviderProfileSettings> | undefined,
): string | undefined {
  const connection = connectionOf(model, env, providers);
  if (connection && connection.type !== 'gemini') return connection.name;
  if (env.GOOGLE_GENAI_USE_GCA === 'true') return 'oauth-personal';
  if (env.GOOGLE_GENAI_USE_VERTEXAI === 'true') return 'vertex-ai';
  if (env.GEMINI_API_KEY) return 'gemini-api-key';
  return undefined;
}

function connectionOf(
  model: string,
  env: NodeJS.ProcessEnv,
  providers: Record<string, ProviderProfileSettings> | undefined,
): { type: string; name: string } | undefined {
  try {
    return new ProviderResolver({ profiles: providers, env }).resolve(model).connection;
  } catch {
    // A bad spec is reported by the generator with its own exit code; here it is just unknown.
    return undefined;
  }
}

/** The wire protocol of the model's provider (`gemini`, `openai`, `anthropic`); `gemini` if unknown. */
export function providerTypeOf(
  model: string,
  env: NodeJS.ProcessEnv,
  providers: Record<string, ProviderProfileSettings> | undefined,
): string {
  return connectionOf(model, env, providers)?.type ?? 'gemini';
}

/**
 * `security.auth.enforcedType`: an administrator pins the auth type; a run that would use another
 * one stops before any request with Gemini CLI's message and its auth exit code (41), in every
 * output format (json gets it as its error object).
 */
export function checkEnforcedAuth(
  settings: Settings,
  run: {
    model: string;
    env: NodeJS.ProcessEnv;
    providers?: Record<string, ProviderProfileSettings> | undefined;
  },
): void {
  const enforced = settings.security?.auth?.enforcedType;
  if (!enforced) return;
  const current = currentAuthType(run.model, run.env, run.providers);
  if (current === enforced) return;
  throw new RuntimeSetupError(
    `The configured auth type is ${enforced}, but the current auth type is ${String(current)}. Please re-authenticate with the correct type.`,
    'auth',
    'Error',
  );
}
