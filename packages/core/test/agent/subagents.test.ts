import { historyProblems } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { routeAgentMention } from '../../src/agent/agent-mention';
import type { SubagentDefinition } from '../../src/agent/subagents';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import { Session } from '../../src/session/session';
import { applyPatchTool } from '../../src/tools/builtin/apply-patch';
import { invokeAgentTool } from '../../src/tools/builtin/invoke-agent';
import { ToolRegistry } from '../../src/tools/registry';
import type { Tool } from '../../src/tools/tool';
import { calls, collect, ofType, tempContext, testTools, text } from '../helpers';
import { agent, invoke, routedModel, speaker } from './subagent-helpers';

function session(
  generator: ContentGenerator,
  agents: SubagentDefinition[],
  options: { log?: string[]; tools?: Tool[] } = {},
) {
  const { ctx } = tempContext();
  return new Session({
    generator,
    model: 'parent-model',
    tools: new ToolRegistry([...testTools(options.log), invokeAgentTool, ...(options.tools ?? [])]),
    toolContext: ctx,
    approvalMode: 'default',
    includeEnvironmentContext: false,
    agents,
    retry: { maxAttempts: 1, streamMaxAttempts: 1 },
  });
}

describe('subagents', () => {
  it('runs a custom agent in its own loop, with its own history, and returns its answer', async () => {
    const model = routedModel({
      main: [[calls(invoke('finder', 'Find the config file.'))], [text('It is in conf/.')]],
      'You are finder.': [
        [calls({ name: 'echo', args: { value: 'looking' } })],
        [{ ...text('conf/app.toml'), usageMetadata: { promptTokenCount: 1000, totalTokenCount: 1234 } }],
      ],
    });
    const s = session(model.generator, [agent('finder', { tools: ['echo'] })]);
    const { events, result } = await collect(
      s.sendMessage('where is the config?', new AbortController().signal),
    );
    expect(result).toEqual({ kind: 'completed', text: 'It is in conf/.' });
    const child = model.requests.filter((entry) => entry.speaker === 'You are finder.');
    // The child's first request holds only its own prompt: nothing of the parent's conversation.
    expect(child[0]!.request.contents).toEqual([
      { role: 'user', parts: [{ text: 'Find the config file.' }] },
    ]);
    expect(child[0]!.request.tools?.map((tool) => tool.name)).toEqual(['echo']);
    expect(child[0]!.request.model).toBe('parent-model');
    // The parent reads the child's final answer and a footer.
    const response = s.history()[2]!.parts[0]!.functionResponse!.response as { output: string };
    expect(response.output).toContain(
      "Subagent 'finder' finished.\nTermination Reason: GOAL\nResult:\nconf/app.toml",
    );
    expect(response.output).toContain('[finder: 2 turn(s), 1 tool call(s) (echo)');
    // The child's events come nested under the parent's call.
    const nested = ofType(events, 'subagent_event');
    const parentCall = ofType(events, 'tool_call_request')[0]!.call.callId;
    expect(nested.every((event) => event.parentCallId === parentCall && event.agent === 'finder')).toBe(true);
    expect(nested.map((event) => event.event.type)).toContain('tool_call_response');
    expect(historyProblems(s.history())).toEqual([]);
    // What the child spent counts in the session's budget and stats.
    expect(s.budget.usage().tokens).toBe(1234);
    expect(s.budget.usage().toolCalls).toBe(2);
  });

  it('declares the freeform tools a definition lists (the wire decides), with its own effort', async () => {
    const model = routedModel({
      main: [[calls(invoke('editor', 'Edit.'))], [text('ok')]],
      'You are editor.': [[text('done')]],
    });
    const s = session(model.generator, [agent('editor', { tools: ['echo', 'apply_patch'], effort: 'low' })], {
      tools: [applyPatchTool],
    });
    s.setEffort('high');
    await collect(s.sendMessage('go', new AbortController().signal));
    const child = model.requests.find((entry) => entry.speaker === 'You are editor.')!;
    expect(child.request.tools?.map((tool) => tool.name)).toEqual(['echo', 'apply_patch']);
    expect(child.request.tools?.[1]?.freeform?.syntax).toBe('lark');
    expect(child.request.config?.effort).toBe('low');
    const parent = model.requests.find((entry) => entry.speaker === 'main')!;
    expect(parent.request.config).toMatchObject({ effort: 'high', cacheKey: s.id });
  });

  it("a child without an effort of its own thinks as hard as the session's /effort says", async () => {
    const model = routedModel({
      main: [[calls(invoke('finder', 'Find.'))], [text('ok')]],
      'You are finder.': [[text('done')]],
    });
    const s = session(model.generator, [agent('finder')]);
    s.setEffort('off');
    await collect(s.sendMessage('go', new AbortController().signal));
    const child = model.requests.find((entry) => entry.speaker === 'You are finder.')!;
    expect(child.request.config?.effort).toBe('off');
  });

  it('runs several invoke_agent calls of one turn in parallel', async () => {
    const model = routedModel({
      main: [[calls(invoke('a', 'task a', 'c1'), invoke('b', 'task b', 'c2'))], [text('both done')]],
      'You are a.': [[text('a done')]],
      'You are b.': [[text('b done')]],
    });
    const s = session(model.generator, [agent('a'), agent('b')]);
    const { result } = await collect(s.sendMessage('go', new AbortController().signal));
    expect(result.kind).toBe('completed');
    expect(model.maxInFlight()).toBe(2);
    const outputs = s
      .history()[2]!
      .parts.map((part) => (part.functionResponse!.response as { output: string }).output);
    expect(outputs[0]).toContain('Result:\na done');
    expect(outputs[1]).toContain('Result:\nb done');
  });

  it('turns a child that hits its turn limit into a clear tool error for the parent', async () => {
    const model = routedModel({
      main: [[calls(invoke('looper', 'keep going'))], [text('The helper gave up.')]],
      'You are looper.': [
        [calls({ name: 'echo', args: { value: '1' } })],
        [calls({ name: 'echo', args: { value: '2' } })],
      ],
    });
    const s = session(model.generator, [agent('looper', { tools: ['echo'], maxTurns: 2 })]);
    const { events, result } = await collect(s.sendMessage('go', new AbortController().signal));
    expect(result).toEqual({ kind: 'completed', text: 'The helper gave up.' });
    const response = ofType(events, 'tool_call_response').find(
      (event) => event.response.name === 'invoke_agent',
    )!;
    expect(response.response.status).toBe('error');
    const output = s.history()[2]!.parts[0]!.functionResponse!.response as {
      error?: string;
      output?: string;
    };
    expect(JSON.stringify(output)).toContain('Agent reached max turns limit (2).');
  });

  it("never lets a child use a tool its parent's policy refuses", async () => {
    const log: string[] = [];
    const model = routedModel({
      main: [[calls(invoke('generalist', 'edit the thing'))], [text('ok')]],
      // `edit_thing` asks in default mode; headless, nobody can approve, so it is refused.
      'You are a capable software engineering agent working on a sub-task for another agent. Nobody can answer questions during this run: do the task on your own with the tools you have, verify what you changed, and finish with a concise final answer that says what you did and found (file paths, commands run and their results).':
        [[calls({ name: 'edit_thing', args: { value: 'x' } })], [text('I could not edit it.')]],
    });
    const s = session(model.generator, [], { log });
    await collect(s.sendMessage('go', new AbortController().signal));
    expect(log).toEqual([]);
    // The child has no invoke_agent of its own (depth limit 1).
    const child = model.requests.find((entry) => entry.speaker !== 'main')!;
    expect(child.request.tools?.map((tool) => tool.name)).not.toContain('invoke_agent');
  });

  it('stops the children with the parent signal', async () => {
    const model = routedModel({ main: [[calls(invoke('slow', 'wait'))]], 'You are slow.': [] });
    const hanging: ContentGenerator = {
      ...model.generator,
      async *generateContentStream(request, signal) {
        if (speaker(request) === 'main') {
          yield* model.generator.generateContentStream(request, signal);
          return;
        }
        await new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      },
    };
    const s = session(hanging, [agent('slow')]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { result } = await collect(s.sendMessage('go', controller.signal));
    expect(result.kind).toBe('cancelled');
    expect(historyProblems(s.history())).toEqual([]);
  });

  it('offers the agents by name and description in the system prompt, and refuses unknown ones', async () => {
    const model = routedModel({ main: [[calls(invoke('nobody', 'x'))], [text('ok')]] });
    const s = session(model.generator, [agent('finder')]);
    await collect(s.sendMessage('go', new AbortController().signal));
    const instruction = model.requests[0]!.request.systemInstruction!;
    expect(instruction).toContain(
      '<subagent><name>finder</name><description>The finder agent.</description></subagent>',
    );
    expect(instruction).toContain('<name>codebase_investigator</name>');
    const response = s.history()[2]!.parts[0]!.functionResponse!.response;
    expect(JSON.stringify(response)).toContain("Subagent 'nobody' not found.");
  });
});

describe('@agent mentions', () => {
  it('routes a prompt that starts with a known agent to invoke_agent, and leaves anything else alone', () => {
    const routed = routeAgentMention('@Codebase_Investigator where is auth handled?', [
      'codebase_investigator',
    ]);
    expect(routed.agent).toBe('codebase_investigator');
    expect(routed.prompt).toContain('where is auth handled?');
    expect(routed.prompt).toContain('invoke_agent (agent_name "codebase_investigator")');
    expect(routeAgentMention('@src/app.ts explain', ['codebase_investigator'])).toEqual({
      prompt: '@src/app.ts explain',
    });
    expect(routeAgentMention('ask @generalist later', ['generalist'])).toEqual({
      prompt: 'ask @generalist later',
    });
  });
});
