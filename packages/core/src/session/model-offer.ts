import type { SubagentRunner } from '../agent/subagents';
import type { FunctionDeclaration } from '../contracts/messages';
import { buildSystemPrompt } from '../prompts/system-prompt';
import { type ApprovalMode, type PolicyChecker, policyToolInfo } from '../scheduler/policy/policy';
import type { ToolRegistry } from '../tools/registry';
import type { DeferredTools } from './deferred-tools';
import type { SessionOptions } from './session-types';
import { declarationsFor, type ToolProfile } from './tool-profile';

const INVOKE_AGENT = 'invoke_agent';

/**
 * What the model is offered with each request of a session: the system prompt and the tool
 * declarations. Both are rebuilt per request, because what they depend on changes mid-session
 * (the approval mode, the memory, the model and with it the tool profile, MCP tools).
 */
export interface ModelOffer {
  systemInstruction(): string;
  tools(): FunctionDeclaration[];
}

export function modelOffer(context: {
  options: Pick<SessionOptions, 'systemInstruction' | 'systemAddendum' | 'sandbox' | 'promptSections'>;
  tools: ToolRegistry;
  policy: PolicyChecker;
  interactive: boolean;
  approvalMode: () => ApprovalMode;
  memory: () => string;
  agents: Pick<SubagentRunner, 'list'>;
  /** Whether subagents may run at all (`agents.maxDepth` above 0). */
  delegation: boolean;
  profile: () => ToolProfile;
  /** Past a number of tools, MCP tools wait for `tool_search` (absent: all are declared). */
  deferred?: DeferredTools;
}): ModelOffer {
  const { options, tools, policy, interactive } = context;
  return {
    systemInstruction: () => {
      if (options.systemInstruction !== undefined) return options.systemInstruction;
      const built = buildSystemPrompt({
        approvalMode: context.approvalMode(),
        interactive,
        memory: context.memory(),
        ...(options.sandbox ? { sandbox: options.sandbox.modelNote() } : {}),
        ...(context.delegation && tools.get(INVOKE_AGENT) ? { agents: context.agents.list() } : {}),
        ...(options.promptSections ? { extraSections: options.promptSections() } : {}),
        ...(context.profile() === 'compact' ? { compact: true } : {}),
      });
      const addendum = options.systemAddendum?.();
      return addendum ? `${built}\n\n${addendum}` : built;
    },
    // Tools the policy denies outright are not offered to the model at all.
    tools: () => {
      const visible = tools
        .list()
        .filter(
          (tool) =>
            (context.delegation || tool.name !== INVOKE_AGENT) &&
            !policy.isToolHidden?.(policyToolInfo(tool), { mode: context.approvalMode(), interactive }),
        );
      const declared = context.deferred ? context.deferred.select(visible) : visible;
      // Freeform tools (apply_patch) are declared too: each wire API sends them where it can
      // (the Responses API's custom tools) and leaves them out elsewhere (llm/providers/freeform.ts).
      return declarationsFor(
        context.profile(),
        declared.map((tool) => tool.declaration()),
      );
    },
  };
}
