import { describe, expect, it } from 'vitest';
import {
  missingKeyMessage,
  ProviderConfigError,
  ProviderResolver,
  UnknownProviderError,
} from '../../src/llm/providers/registry';

const env = { GEMINI_API_KEY: 'g', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' };

describe('model specs', () => {
  const resolver = new ProviderResolver({ env });
  const pick = (spec: string) => {
    const r = resolver.resolve(spec);
    return { provider: r.connection.name, type: r.connection.type, model: r.model, spec: r.spec };
  };

  it('splits provider:model at the first colon only', () => {
    expect(pick('openai:gpt-5')).toEqual({
      provider: 'openai',
      type: 'openai',
      model: 'gpt-5',
      spec: 'openai:gpt-5',
    });
    expect(pick('ollama:qwen3-coder:30b')).toMatchObject({
      provider: 'ollama',
      type: 'openai',
      model: 'qwen3-coder:30b',
    });
  });

  it('fills in each provider default model', () => {
    expect(pick('openai').model).toBe('gpt-5');
    expect(pick('anthropic:').spec).toBe('anthropic:claude-sonnet-4-5');
    expect(pick('ollama').model).toBe('qwen3-coder');
    expect(pick('gemini').model).toBe('gemini-2.5-pro');
  });

  it('infers the provider of a bare model id, Gemini by default', () => {
    expect(pick('gpt-4o-mini').provider).toBe('openai');
    expect(pick('o4-mini').provider).toBe('openai');
    expect(pick('claude-opus-4-5-20251101').provider).toBe('anthropic');
    expect(pick('gemini-2.5-flash')).toEqual({
      provider: 'gemini',
      type: 'gemini',
      model: 'gemini-2.5-flash',
      spec: 'gemini-2.5-flash',
    });
  });

  it('refuses a provider prefix it does not know rather than sending it to Gemini as a model id', () => {
    expect(() => pick('nosuchprovider:x')).toThrow(
      new UnknownProviderError('nosuchprovider', ['gemini', 'openai', 'anthropic', 'ollama', 'openrouter']),
    );
    expect(() => pick('nosuchprovider:x')).toThrow(
      "Unknown provider 'nosuchprovider' (known: gemini, openai, anthropic, ollama, openrouter).",
    );
    // An Ollama tag without its provider is no exception.
    expect(() => pick('qwen3:8b')).toThrow(UnknownProviderError);
  });

  it('takes a settings profile name as a prefix, and a colon id that a profile lists', () => {
    const resolver = new ProviderResolver({
      env,
      profiles: { lab: { type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', models: ['qwen3:8b'] } },
    });
    expect(resolver.resolve('lab:llama3').connection.name).toBe('lab');
    expect(resolver.resolve('qwen3:8b').connection.name).toBe('lab');
    expect(() => resolver.resolve('labs:llama3')).toThrow(
      "Unknown provider 'labs' (known: gemini, openai, anthropic, ollama, openrouter, lab).",
    );
  });
});

describe('provider profiles and keys', () => {
  it('adds settings profiles, lists their models, and needs no key without apiKeyEnv', () => {
    const resolver = new ProviderResolver({
      env: {},
      profiles: {
        lab: { type: 'openai', baseUrl: 'http://gpu:8000/v1', models: ['qwen3-coder-30b', 'llama'] },
      },
    });
    const byName = resolver.resolve('lab');
    expect(byName).toMatchObject({
      model: 'qwen3-coder-30b',
      connection: { baseUrl: 'http://gpu:8000/v1', missingKey: false },
    });
    expect(resolver.resolve('llama').connection.name).toBe('lab');
  });

  it('reads a profile key from its apiKeyEnv and reports it when missing', () => {
    const profiles = { corp: { type: 'anthropic', baseUrl: 'https://gw', apiKeyEnv: 'CORP_KEY' } };
    expect(
      new ProviderResolver({ env: { CORP_KEY: 'k' }, profiles }).resolve('corp:claude-x').connection,
    ).toMatchObject({
      apiKey: 'k',
      missingKey: false,
    });
    const missing = new ProviderResolver({ env: {}, profiles }).resolve('corp:claude-x').connection;
    expect(missing.missingKey).toBe(true);
    expect(missingKeyMessage(missing)).toContain('Set CORP_KEY');
  });

  it('needs keys for the hosted APIs, but not for OpenAI moved to another server', () => {
    const bare = new ProviderResolver({ env: {} });
    expect(bare.resolve('openai:gpt-5').connection.missingKey).toBe(true);
    expect(bare.resolve('claude-sonnet-4-5').connection.missingKey).toBe(true);
    expect(missingKeyMessage(bare.resolve('gemini-2.5-pro').connection)).toContain(
      'GEMINI_API_KEY (or GOOGLE_API_KEY)',
    );
    expect(bare.resolve('ollama:llama3').connection.missingKey).toBe(false);
    const local = new ProviderResolver({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' } });
    expect(local.resolve('openai:local').connection).toMatchObject({
      missingKey: false,
      baseUrl: 'http://127.0.0.1:8080/v1',
    });
  });

  it('lets the environment override a base URL from settings', () => {
    const profiles = { anthropic: { baseUrl: 'https://from-settings' } };
    const resolver = new ProviderResolver({
      env: { ...env, ANTHROPIC_BASE_URL: 'https://from-env' },
      profiles,
    });
    expect(resolver.resolve('anthropic').connection.baseUrl).toBe('https://from-env');
  });

  it('rejects a profile with an unknown type', () => {
    expect(() => new ProviderResolver({ env, profiles: { x: { type: 'cohere' } } })).toThrow(
      ProviderConfigError,
    );
  });
});
