/**
 * `authenticate` and `logout` over ACP: an API key the editor sends joins the environment of the
 * sessions started after it, in this process's memory only (never written or logged); `logout`
 * takes it away again.
 */
import * as acp from '@agentclientprotocol/sdk';

/** Where an API key sent with `authenticate` goes, by provider. */
const KEY_VARIABLES: Record<string, string> = {
  gemini: 'GEMINI_API_KEY',
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

export const AUTH_METHODS: acp.AuthMethod[] = [
  {
    id: 'api-key',
    name: 'API key',
    description:
      'Use the key in the environment kodo starts with (GEMINI_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY), or send one as _meta.apiKey (with _meta.provider: gemini | openai | anthropic).',
  },
];

/** The environment new sessions start with: kodo's own, plus the keys the editor gave. */
export class EditorCredentials {
  /** What a session opened now starts from (each session copies it). */
  readonly env: NodeJS.ProcessEnv;
  /** Keys `authenticate` added (logout removes them). */
  private readonly givenKeys = new Set<string>();

  constructor(private readonly launchEnv: NodeJS.ProcessEnv) {
    this.env = { ...launchEnv };
  }

  authenticate(params: acp.AuthenticateRequest): acp.AuthenticateResponse {
    if (params.methodId !== 'api-key') {
      throw acp.RequestError.invalidParams(undefined, `Unknown authentication method: ${params.methodId}`);
    }
    const meta = params._meta ?? {};
    const key = meta.apiKey;
    if (key === undefined) return {};
    const provider = typeof meta.provider === 'string' ? meta.provider : 'gemini';
    const variable = KEY_VARIABLES[provider];
    if (typeof key !== 'string' || key === '' || !variable) {
      throw acp.RequestError.invalidParams(
        undefined,
        '_meta.apiKey must be a key and _meta.provider one of gemini, openai, anthropic',
      );
    }
    // Kept in this process's memory for the sessions it starts; never written or logged.
    this.env[variable] = key;
    this.givenKeys.add(variable);
    return {};
  }

  /** Forgets the keys `authenticate` gave; sessions started later need a key again. */
  logout(): acp.LogoutResponse {
    for (const variable of this.givenKeys) {
      if (this.launchEnv[variable] === undefined) delete this.env[variable];
      else this.env[variable] = this.launchEnv[variable];
    }
    this.givenKeys.clear();
    return {};
  }
}
