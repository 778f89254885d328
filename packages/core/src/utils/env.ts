/** Names of variables that hold credentials; never passed to tools, hooks or child processes. */
const SECRET_NAME = /(^|_)(API_KEY|APIKEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY)($|_)/i;
const SECRET_EXACT = new Set([
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AWS_SESSION_TOKEN',
  'GH_TOKEN',
  'GITHUB_TOKEN',
]);

export function isSecretEnvName(name: string): boolean {
  return SECRET_EXACT.has(name.toUpperCase()) || SECRET_NAME.test(name);
}

/** A copy of `env` without credentials, for child processes the model can drive. */
export function sanitizeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isSecretEnvName(name)) out[name] = value;
  }
  return out;
}
