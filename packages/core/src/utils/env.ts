/**
 * Names of variables that hold credentials; never passed to tools, hooks or child processes.
 * A name is secret when one of its `_`-separated words (case-insensitive) is one of these, or it
 * holds `API_KEY` / `PRIVATE_KEY` as two words. Words, not a regular expression: this runs at
 * start-up for every variable, and a case-insensitive alternation costs V8 ~0.3 ms to compile
 * (docs/performance.md).
 */
const SECRET_WORDS = new Set([
  'APIKEY',
  'SECRET',
  'TOKEN',
  'PASSWORD',
  'PASSWD',
  'CREDENTIAL',
  'CREDENTIALS',
]);
/** The word before `KEY` that makes it a secret. */
const KEY_QUALIFIERS = new Set(['API', 'PRIVATE']);
const SECRET_EXACT = new Set([
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AWS_SESSION_TOKEN',
  'GH_TOKEN',
  'GITHUB_TOKEN',
]);

export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_EXACT.has(upper)) return true;
  const words = upper.split('_');
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (SECRET_WORDS.has(word)) return true;
    if (word === 'KEY' && index > 0 && KEY_QUALIFIERS.has(words[index - 1]!)) return true;
  }
  return false;
}

/** A copy of `env` without credentials, for child processes the model can drive. */
export function sanitizeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isSecretEnvName(name)) out[name] = value;
  }
  return out;
}
