/**
 * What the subagent tests share: a model that answers each agent from its own script, agent
 * definitions and invoke_agent calls.
 */
import type { SubagentDefinition } from '../../src/agent/subagents';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';

/** Who a request is from: the main agent, or the subagent whose prompt opens the instruction. */
export function speaker(request: GenerateRequest): string {
  const instruction = request.systemInstruction ?? '';
  return instruction.startsWith('You are kodo') ? 'main' : instruction.split('\n')[0]!;
}

/**
 * A model that answers each speaker from its own script, so parallel children get their own
 * turns whatever order their requests come in. `gate` holds a speaker's first request until
 * `release` is called, to prove two children were running at once.
 */
export function routedModel(scripts: Record<string, GenerateResponse[][]>) {
  const requests: { speaker: string; request: GenerateRequest }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const generator: ContentGenerator = {
    provider: 'routed',
    generateContent: async () => ({}),
    countTokens: async () => ({ totalTokens: 0 }),
    async *generateContentStream(request) {
      const who = speaker(request);
      requests.push({ speaker: who, request: structuredClone(request) });
      const script = scripts[who];
      const next = script?.shift();
      if (!next) throw new Error(`no scripted answer for ${who}`);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight -= 1;
      yield* next;
    },
  };
  return { generator, requests, maxInFlight: () => maxInFlight };
}

export const agent = (name: string, overrides: Partial<SubagentDefinition> = {}): SubagentDefinition => ({
  name,
  description: `The ${name} agent.`,
  systemPrompt: `You are ${name}.`,
  source: 'test',
  ...overrides,
});

export const invoke = (agent_name: string, prompt: string, id?: string) => ({
  name: 'invoke_agent',
  args: { agent_name, prompt },
  ...(id ? { id } : {}),
});
