import { describe, expect, it } from 'vitest';
import { isSecretEnvName, sanitizeEnv } from '../../src/utils/env';

describe('isSecretEnvName', () => {
  it.each([
    'GEMINI_API_KEY',
    'OPENAI_API_KEY',
    'anthropic_api_key',
    'MY_APIKEY',
    'APIKEY',
    'AWS_SECRET_ACCESS_KEY',
    'CLIENT_SECRET',
    'NPM_TOKEN',
    'token',
    'DB_PASSWORD',
    'MYSQL_PASSWD',
    'AZURE_CREDENTIALS',
    'GCP_CREDENTIAL_FILE',
    'SSH_PRIVATE_KEY',
    'A__API_KEY',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'AWS_SESSION_TOKEN',
    'GH_TOKEN',
    'github_token',
  ])('%s is a secret', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
  });

  it.each([
    'PATH',
    'HOME',
    'GOOGLE_GEMINI_BASE_URL',
    'KEY',
    'MONKEY_KEY',
    'API',
    'KEYBOARD_API',
    'TOKENIZER_PATH',
    'SECRETARY',
    'PASSWORDLESS',
    'MAX_TOKENS',
    'PUBLIC_KEY',
    'KEY_API',
    '',
  ])('%s is not a secret', (name) => {
    expect(isSecretEnvName(name)).toBe(false);
  });

  it('keeps the other variables for child processes', () => {
    expect(sanitizeEnv({ PATH: '/bin', GEMINI_API_KEY: 'k', HOME: '/h', EMPTY: undefined })).toEqual({
      PATH: '/bin',
      HOME: '/h',
    });
  });
});
