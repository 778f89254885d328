import type { BudgetTracker } from '../agent/budgets';
import type { AgentLoopDeps, LoopResult, PromptInput } from '../agent/loop';
import type { ProjectMemory } from '../context/memory-files';
import type { AgentEvent } from '../contracts/events';
import type { Part } from '../contracts/messages';
import type { HookSystem } from '../hooks/hook-system';
import { PromptHooks } from '../hooks/prompt-hooks';
import type { ContextWindowSource } from '../llm/context-windows';
import { environmentContext } from '../prompts/environment';
import type { SessionCheckpoints } from '../safety/checkpoints/session-checkpoints';
import type { Telemetry } from '../telemetry/telemetry';
import type { Workspace } from '../tools/workspace';
import type { PromptIds } from './prompt-ids';
import type { TurnBoundary } from './recorder';

/** What one prompt's run reads and reports to. */
export interface PromptRunDeps {
  promptIds: PromptIds;
  budget: BudgetTracker;
  checkpoints: SessionCheckpoints | undefined;
  telemetry: Telemetry;
  hooks: HookSystem | undefined;
  memory: ProjectMemory | undefined;
  workspace: Workspace;
  contextWindows: ContextWindowSource | undefined;
  model(): string;
  loopDeps: Omit<AgentLoopDeps, 'promptHooks' | 'record'>;
  /** A turn boundary: the recorder makes everything so far durable. */
  record(boundary: Omit<TurnBoundary, 'history' | 'rewrites' | 'model' | 'stats' | 'todos'>): void;
}

/** One prompt, ready for the loop. */
export interface PreparedPrompt {
  loopDeps: AgentLoopDeps;
  input: PromptInput;
}

/**
 * Sending a message: what the session adds around one prompt's run of the agent loop
 * (`agent/loop.ts`, run by Session.sendMessage between `begin` and `end`) — the prompt id, the
 * budget's clock, a checkpoint of the prompt, telemetry, the prompt hooks, and the environment
 * context that goes with the first prompt the model answers.
 */
export class PromptRunner {
  /** The environment context (date, OS, folders, the first-turn context files) is still owed. */
  private needsEnvironmentContext: boolean;

  constructor(
    private readonly deps: PromptRunDeps,
    options: { environmentContext: boolean },
  ) {
    this.needsEnvironmentContext = options.environmentContext;
  }

  /**
   * Everything before the loop: the prompt id, the budget's clock, a checkpoint, telemetry, the
   * environment preamble owed, a local server's window. Returns what the loop runs with; the
   * session runs the loop itself (Session.sendMessage), so no frame of this class sits between
   * the front end and the request.
   */
  async begin(
    input: string | Part[],
    signal: AbortSignal,
    options: { responseJsonSchema?: Record<string, unknown> } = {},
  ): Promise<PreparedPrompt> {
    const { deps } = this;
    const promptId = deps.promptIds.next();
    deps.budget.start();
    const parts: Part[] = typeof input === 'string' ? [{ text: input }] : input;
    const promptText = parts.map((part) => part.text ?? '').join('');
    deps.checkpoints?.promptStarted(promptId, promptText);
    deps.telemetry.userPrompt({ promptId, prompt: promptText });
    const preamble = this.needsEnvironmentContext ? this.environmentPreamble() : undefined;
    this.needsEnvironmentContext = false;
    // A local server's window (asked for at setup) decides the tool profile of this first request.
    await deps.contextWindows?.discover(deps.model(), signal);
    const schema = options.responseJsonSchema;
    return {
      loopDeps: {
        ...deps.loopDeps,
        ...(schema
          ? {
              tools: () => [],
              generationConfig: { ...deps.loopDeps.generationConfig, responseJsonSchema: schema },
            }
          : {}),
        // BeforeAgent sees the prompt as typed, before any preamble.
        ...(deps.hooks ? { promptHooks: new PromptHooks(deps.hooks, parts) } : {}),
        record: (boundary) => deps.record(boundary),
      },
      input: {
        parts,
        promptId,
        ...(typeof input === 'string' ? { displayText: input } : {}),
        ...(preamble ? { preamble } : {}),
      },
    };
  }

  /** After the loop: a first prompt nothing answered gives its environment context back to the next one. */
  end(prompt: PreparedPrompt, result: LoopResult): void {
    if (prompt.input.preamble && !result.promptKept) this.needsEnvironmentContext = true;
  }

  private environmentPreamble(): Part[] {
    const projectContext = this.deps.memory?.firstTurnBlock() ?? '';
    const { workspace } = this.deps;
    const environment = environmentContext({ cwd: workspace.cwd, roots: workspace.roots });
    return [{ text: projectContext ? `${environment}\n\n${projectContext}` : environment }];
  }

  /** Telemetry of what the loop did (it only watches; the loop decides). */
  observe(event: AgentEvent, promptId: string): void {
    const { telemetry } = this.deps;
    if (event.type === 'chat_compressed' && event.status !== 'noop') {
      telemetry.compression({
        tokensBefore: event.originalTokens,
        tokensAfter: event.newTokens,
        status: event.status,
      });
    }
    if (event.type === 'loop_detected')
      telemetry.loopDetected({ promptId, detail: event.detail, action: event.action });
  }
}
