/**
 * Where an effort comes from: `--effort` over a profile's `effort` over `model.effort`; an agent
 * file's `effort:` (Claude Code's `xhigh` read as `max`); bad values refused with the setting
 * named. And the pure mapping for the families' edge cases.
 */
import { describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../src/agents/agent-file';
import { geminiGeneration, thinkingPlan } from '../../src/llm/effort';
import { openAIWireFor } from '../../src/llm/providers/openai-wire';
import { ProviderConfigError, ProviderResolver } from '../../src/llm/providers/registry';

const env = { GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' };

describe('where the effort comes from', () => {
  it('--effort wins over a profile, a profile over model.effort', () => {
    const profiles = { anthropic: { effort: 'low' as const } };
    const base = new ProviderResolver({ env, profiles, effort: 'medium' });
    expect(base.resolve('claude-sonnet-4-5').connection.effort).toBe('low');
    expect(base.resolve('gemini-2.5-pro').connection.effort).toBe('medium');
    const flagged = new ProviderResolver({ env, profiles, effort: 'medium', effortOverride: 'off' });
    expect(flagged.resolve('claude-sonnet-4-5').connection.effort).toBe('off');
    expect(new ProviderResolver({ env }).resolve('gpt-5').connection.effort).toBeUndefined();
  });

  it('refuses an unknown effort and a wireApi off an OpenAI profile, naming the setting', () => {
    expect(() => new ProviderResolver({ env, profiles: { anthropic: { effort: 'huge' as never } } })).toThrow(
      new ProviderConfigError(
        'Settings providers.anthropic.effort must be one of off, low, medium, high, max (got "huge").',
      ),
    );
    expect(() => new ProviderResolver({ env, profiles: { gemini: { wireApi: 'responses' } } })).toThrow(
      /providers\.gemini\.wireApi must be "responses" or "chat", on a type "openai" profile/,
    );
  });

  it("an agent file's effort; Claude Code's xhigh is max; anything else is a warning", async () => {
    const source = { scope: 'user' as const, path: '/a/r.md', format: 'claude' as const };
    const file = (effort: string) => `---\nname: r\ndescription: d\neffort: ${effort}\n---\nbody`;
    expect((await parseAgentFile(file('low'), source)).definition?.effort).toBe('low');
    expect((await parseAgentFile(file('xhigh'), source)).definition?.effort).toBe('max');
    const bad = await parseAgentFile(file('lots'), source);
    expect(bad.definition?.effort).toBeUndefined();
    expect(bad.warnings).toEqual(['/a/r.md: "effort" must be one of off, low, medium, high, max; ignored.']);
  });
});

describe('the mapping per family', () => {
  it('knows which Gemini models take a budget, which a level, which neither', () => {
    expect(geminiGeneration('gemini-2.5-flash-lite')).toBe('2.5');
    expect(geminiGeneration('models/gemini-3.5-flash')).toBe('3');
    expect(geminiGeneration('gemini-2.0-flash')).toBeUndefined();
    expect(geminiGeneration('gemini-2.5-flash-image')).toBeUndefined();
    const old = thinkingPlan(
      { family: 'gemini', model: 'gemini-2.0-flash', reasoning: false, maxOutputTokens: 8192 },
      'high',
    );
    expect(old.config).toEqual({ temperature: 1, topP: 0.95, topK: 64 });
  });

  it('Anthropic: a model that does not think gets no thinking; an unknown one only when asked', () => {
    const target = (reasoning: boolean | undefined) => ({
      family: 'anthropic' as const,
      model: 'claude-x',
      reasoning,
      maxOutputTokens: 8192,
    });
    expect(thinkingPlan(target(false), 'high').config).toEqual({ thinkingBudget: 0, includeThoughts: false });
    expect(thinkingPlan(target(undefined), undefined).config).toEqual({
      thinkingBudget: 0,
      includeThoughts: false,
    });
    expect(thinkingPlan(target(undefined), 'medium').config).toEqual({
      thinkingBudget: 16000,
      includeThoughts: true,
    });
    expect(thinkingPlan(target(true), undefined, { utility: true }).config.thinkingBudget).toBe(0);
  });

  it("OpenAI: the Responses API for OpenAI's own models on OpenAI's API, Chat Completions elsewhere", () => {
    expect(openAIWireFor(undefined, 'gpt-5', undefined)).toBe('responses');
    expect(openAIWireFor(undefined, 'gpt-9-preview', undefined)).toBe('responses');
    expect(openAIWireFor(undefined, 'o3', undefined)).toBe('responses');
    expect(openAIWireFor('https://api.openai.com/v1', 'codex-mini-latest', undefined)).toBe('responses');
    expect(openAIWireFor('http://localhost:11434/v1', 'gpt-oss:20b', undefined)).toBe('chat');
    expect(openAIWireFor('https://openrouter.ai/api/v1', 'openai/gpt-5', undefined)).toBe('chat');
    expect(openAIWireFor(undefined, 'llama-3', undefined)).toBe('chat');
    expect(openAIWireFor('http://localhost:8080/v1', 'gpt-5', 'responses')).toBe('responses');
    expect(openAIWireFor(undefined, 'gpt-5', 'chat')).toBe('chat');
    // A model that does not reason gets no reasoning field on the Responses API.
    const plain = thinkingPlan(
      { family: 'openai-responses', model: 'gpt-4.1', reasoning: false, maxOutputTokens: 1 },
      'high',
    );
    expect(plain.config).toEqual({});
  });
});
