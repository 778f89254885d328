import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiHome } from '../config/paths';
import { parseJsonc } from '../utils/jsonc';

/**
 * Gemini CLI users who sign in with Google or use Vertex AI have no API key to bring: kodo
 * speaks only to the Gemini API with a key. When no key is found and their setup says so, the
 * error names their sign-in method and the way forward instead of a bare "No API key found".
 * Read only on that error path: nothing is added to a run that has its key.
 */

/** Gemini CLI's auth type names (`security.auth.selectedType`) that kodo cannot use, in words. */
const METHODS: Readonly<Record<string, string>> = {
  'oauth-personal': 'sign-in with Google',
  'login-with-google': 'sign-in with Google',
  'cloud-shell': 'Cloud Shell sign-in',
  'compute-default-credentials': 'Google Cloud default credentials',
  'vertex-ai': 'Vertex AI',
};

const WAY_FORWARD =
  'set GEMINI_API_KEY (a Gemini API key from https://aistudio.google.com/apikey), or use another provider (e.g. -m anthropic with ANTHROPIC_API_KEY, -m openai with OPENAI_API_KEY), then run kodo again';

/** The sign-in method the environment or Gemini CLI's settings name, and where it was found. */
export function googleSignIn(env: NodeJS.ProcessEnv): { method: string; where: string } | undefined {
  if (env.GOOGLE_GENAI_USE_VERTEXAI === 'true')
    return { method: METHODS['vertex-ai']!, where: 'GOOGLE_GENAI_USE_VERTEXAI=true' };
  if (env.GOOGLE_GENAI_USE_GCA === 'true')
    return { method: METHODS['oauth-personal']!, where: 'GOOGLE_GENAI_USE_GCA=true' };
  const file = join(geminiHome(env), 'settings.json');
  const selected = selectedAuthType(file);
  if (selected && METHODS[selected])
    return { method: METHODS[selected], where: `security.auth.selectedType "${selected}" in ${file}` };
  if (env.GOOGLE_CLOUD_PROJECT?.trim())
    return { method: 'a Google Cloud project (Code Assist or Vertex AI)', where: 'GOOGLE_CLOUD_PROJECT' };
  return undefined;
}

/** The one-line error for a Gemini run with no key whose owner signs in another way; else undefined. */
export function unsupportedSignInMessage(env: NodeJS.ProcessEnv): string | undefined {
  const found = googleSignIn(env);
  if (!found) return undefined;
  return `Gemini CLI's ${found.method} (${found.where}) is not supported by kodo, which needs an API key: ${WAY_FORWARD}.`;
}

/** `security.auth.selectedType` (or the older top-level `selectedAuthType`); undefined if unreadable. */
function selectedAuthType(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  // A file that does not parse names no method (the settings loader reports it).
  let data: unknown;
  try {
    data = parseJsonc(text);
  } catch {
    return undefined;
  }
  if (!data || typeof data !== 'object') return undefined;
  const record = data as { security?: { auth?: { selectedType?: unknown } }; selectedAuthType?: unknown };
  const value = record.security?.auth?.selectedType ?? record.selectedAuthType;
  return typeof value === 'string' ? value : undefined;
}
