import type { GenerateRequest, GenerateResponse } from '../contracts/messages';
import { isRecord } from '../utils/is-record';
import { HookExecutor, type HookExecutorOptions } from './hook-executor';
import {
  applyHookRequest,
  applyToolConfig,
  fromHookResponse,
  type HookLlmRequest,
  toHookRequest,
  toHookResponse,
} from './llm-format';
import { type ModelSteps, modelHookSteps } from './model-steps';
import {
  type CompressTrigger,
  displayReason,
  effectiveReason,
  type HookEventName,
  type HookOutput,
  type HookRunResult,
  type HookTailCall,
  isBlockingDecision,
  type SessionEndReason,
  type SessionStartSource,
} from './types';

/** The agent must stop (`continue: false`) or this action is refused (`deny`/`block`). */
export type HookHalt = ({ action: 'stop' } & HaltReasons) | ({ action: 'block' } & HaltReasons);

interface HaltReasons {
  /** For the model: the hook's stopReason or reason. */
  reason: string;
  /** For the person: the hook's systemMessage, else the reason. */
  message: string;
}

export type BeforeAgentVerdict = HookHalt | { action: 'continue'; additionalContext?: string };
export type AfterAgentVerdict = (HookHalt | { action: 'done' }) & { clearContext: boolean };
export type BeforeModelVerdict =
  | HookHalt
  | { action: 'continue'; request: GenerateRequest }
  /** A hook answered instead of the model: the call is skipped. */
  | { action: 'respond'; response: GenerateResponse };
export type AfterModelVerdict = HookHalt | { action: 'continue'; chunk: GenerateResponse };
export type BeforeToolVerdict =
  | HookHalt
  | {
      action: 'continue';
      /** The arguments after the hooks' `tool_input` edits; absent when none edited them. */
      toolInput?: Record<string, unknown>;
      /** A hook asked for the person's confirmation whatever the policy allows. */
      ask: boolean;
    };
export type AfterToolVerdict =
  | HookHalt
  | { action: 'continue'; additionalContext?: string; tailCall?: HookTailCall };

export interface ToolHookInput {
  toolName: string;
  toolInput: Record<string, unknown>;
  mcpContext?: Record<string, unknown>;
  /** For a call a hook asked for (`tailToolCallRequest`): the tool the model called. */
  originalRequestName?: string;
}

export interface ToolResponseForHooks {
  llmContent: unknown;
  returnDisplay: string;
  error?: { type: string; message: string };
}

export type HookSystemOptions = HookExecutorOptions;

/**
 * The hooks of one session, one method per event, each answering in the terms its caller acts
 * on (continue, block, stop, rewritten input…). A method whose event has no hooks returns at
 * once without building its input. Advisory events (SessionEnd, PreCompress, Notification) are
 * not awaited by the session; `settle()` waits for them, so a front end can let them finish
 * before the process exits.
 */
export class HookSystem {
  private readonly executor: HookExecutor;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(options: HookSystemOptions) {
    this.executor = new HookExecutor(options);
    for (const problem of options.config.problems) {
      this.executor.report({ severity: 'warning', message: problem });
    }
  }

  /** The steps around each conversation request (BeforeModel, AfterModel and the rest). */
  modelSteps(): ModelSteps {
    return modelHookSteps(this);
  }

  has(event: HookEventName): boolean {
    return this.executor.has(event);
  }

  /** Every hook run, as it ends (the session reports them to telemetry). */
  onRun(listener: (run: HookRunResult) => void): () => void {
    return this.executor.onRun(listener);
  }

  /** `/hooks disable <name>`: from now on in this session (settings are the caller's business). */
  disableHook(label: string): void {
    this.executor.disabled.add(label);
  }

  enableHook(label: string): void {
    this.executor.disabled.delete(label);
  }

  /** For messages the session itself has about hooks (e.g. a retry limit reached). */
  warn(event: HookEventName, message: string): void {
    this.executor.report({ severity: 'warning', event, message });
  }

  async sessionStart(
    source: SessionStartSource,
    signal?: AbortSignal,
  ): Promise<{ additionalContext?: string }> {
    const { aggregated } = await this.executor.fire('SessionStart', () => ({ source }), {
      target: source,
      ...(signal ? { signal } : {}),
    });
    if (!aggregated) return {};
    this.showMessage('SessionStart', aggregated);
    const context = aggregated.hookSpecificOutput?.additionalContext;
    return context ? { additionalContext: context } : {};
  }

  /** Fired, not awaited by the session: its result is only shown. */
  sessionEnd(reason: SessionEndReason): Promise<void> {
    return this.track(
      this.executor
        .fire('SessionEnd', () => ({ reason }), { target: reason })
        .then(({ aggregated }) => {
          if (aggregated) this.showMessage('SessionEnd', aggregated);
        }),
    );
  }

  async beforeAgent(prompt: string, signal: AbortSignal): Promise<BeforeAgentVerdict> {
    const { aggregated } = await this.executor.fire('BeforeAgent', () => ({ prompt }), {
      signal,
      chain: (input, output) => {
        const context = output.hookSpecificOutput?.additionalContext;
        return context ? { ...input, prompt: `${String(input.prompt)}\n\n${context}` } : input;
      },
    });
    if (!aggregated) return { action: 'continue' };
    const halt = haltOf(aggregated);
    if (halt) return halt;
    this.showMessage('BeforeAgent', aggregated);
    const context = aggregated.hookSpecificOutput?.additionalContext;
    return context ? { action: 'continue', additionalContext: context } : { action: 'continue' };
  }

  async afterAgent(
    info: { prompt: string; response: string; stopHookActive: boolean },
    signal: AbortSignal,
  ): Promise<AfterAgentVerdict> {
    const { aggregated } = await this.executor.fire(
      'AfterAgent',
      () => ({ prompt: info.prompt, prompt_response: info.response, stop_hook_active: info.stopHookActive }),
      { signal },
    );
    if (!aggregated) return { action: 'done', clearContext: false };
    const clearContext = aggregated.hookSpecificOutput?.clearContext === true;
    const halt = haltOf(aggregated);
    if (halt) return { ...halt, clearContext };
    this.showMessage('AfterAgent', aggregated);
    return { action: 'done', clearContext };
  }

  async beforeModel(request: GenerateRequest, signal: AbortSignal): Promise<BeforeModelVerdict> {
    const { outputs, aggregated } = await this.executor.fire(
      'BeforeModel',
      () => ({ llm_request: toHookRequest(request) }),
      {
        signal,
        chain: (input, output) => {
          const patch = output.hookSpecificOutput?.llm_request;
          return patch ? { ...input, llm_request: patchHookRequest(input.llm_request, patch) } : input;
        },
      },
    );
    if (!aggregated) return { action: 'continue', request };
    const synthetic = aggregated.hookSpecificOutput?.llm_response;
    const response = synthetic ? fromHookResponse(synthetic) : undefined;
    const halt = haltOf(aggregated);
    // A block that brings its own answer is how a hook says "answer this instead of the model"
    // (a cache, a canned refusal): the answer is used. `continue: false` still stops.
    if (halt && !(halt.action === 'block' && response)) return halt;
    this.showMessage('BeforeModel', aggregated);
    if (response) return { action: 'respond', response: withStopReason(response) };
    // Each hook's partial request applies on top of the previous ones, in settings order.
    let next = request;
    for (const output of outputs) {
      const patch = output.hookSpecificOutput?.llm_request;
      if (patch) next = applyHookRequest(next, patch);
    }
    return { action: 'continue', request: next };
  }

  /** Narrows the request's tool declarations by the hooks' `toolConfig`. */
  async beforeToolSelection(request: GenerateRequest, signal: AbortSignal): Promise<GenerateRequest> {
    const { aggregated } = await this.executor.fire(
      'BeforeToolSelection',
      () => ({ llm_request: toHookRequest(request) }),
      { signal },
    );
    const config = aggregated?.hookSpecificOutput?.toolConfig;
    if (!config || !request.tools) return request;
    const { tools, ...rest } = request;
    const allowed = applyToolConfig(tools, config);
    // No tools at all is sent as no `tools` field: providers reject an empty declaration list.
    return allowed.length > 0 ? { ...rest, tools: allowed } : rest;
  }

  /** One streamed chunk; `request` is the hook view of the request it answers (built once). */
  async afterModel(
    request: () => HookLlmRequest,
    chunk: GenerateResponse,
    signal: AbortSignal,
  ): Promise<AfterModelVerdict> {
    const { aggregated } = await this.executor.fire(
      'AfterModel',
      () => ({ llm_request: request(), llm_response: toHookResponse(chunk) }),
      { signal },
    );
    if (!aggregated) return { action: 'continue', chunk };
    const halt = haltOf(aggregated);
    if (halt) return halt;
    this.showMessage('AfterModel', aggregated);
    const replacement = aggregated.hookSpecificOutput?.llm_response;
    const replaced = replacement ? fromHookResponse(replacement, chunk) : undefined;
    return { action: 'continue', chunk: replaced ?? chunk };
  }

  async beforeTool(info: ToolHookInput, signal: AbortSignal): Promise<BeforeToolVerdict> {
    const { outputs, aggregated } = await this.executor.fire('BeforeTool', () => toolFields(info), {
      target: info.toolName,
      signal,
      chain: (input, output) => {
        const patch = output.hookSpecificOutput?.tool_input;
        return patch ? { ...input, tool_input: { ...(input.tool_input as object), ...patch } } : input;
      },
    });
    if (!aggregated) return { action: 'continue', ask: false };
    const halt = haltOf(aggregated);
    if (halt) return halt;
    this.showMessage('BeforeTool', aggregated);
    const patches = outputs.flatMap((output) => {
      const patch = output.hookSpecificOutput?.tool_input;
      return patch ? [patch] : [];
    });
    const ask = aggregated.decision === 'ask';
    if (patches.length === 0) return { action: 'continue', ask };
    return { action: 'continue', ask, toolInput: Object.assign({ ...info.toolInput }, ...patches) };
  }

  async afterTool(
    info: ToolHookInput & { toolResponse: ToolResponseForHooks },
    signal: AbortSignal,
  ): Promise<AfterToolVerdict> {
    const { aggregated } = await this.executor.fire(
      'AfterTool',
      () => ({ ...toolFields(info), tool_response: info.toolResponse }),
      { target: info.toolName, signal },
    );
    if (!aggregated) return { action: 'continue' };
    const halt = haltOf(aggregated);
    if (halt) return halt;
    this.showMessage('AfterTool', aggregated);
    const specific = aggregated.hookSpecificOutput;
    return {
      action: 'continue',
      ...(specific?.additionalContext ? { additionalContext: specific.additionalContext } : {}),
      ...(specific?.tailToolCallRequest ? { tailCall: specific.tailToolCallRequest } : {}),
    };
  }

  /**
   * Advisory: fired before each compression check. The promise settles when the hooks have run;
   * callers wait for it only when a compression follows (see docs/hooks.md).
   */
  preCompress(trigger: CompressTrigger): Promise<void> {
    if (!this.has('PreCompress')) return Promise.resolve();
    return this.track(
      this.executor
        .fire('PreCompress', () => ({ trigger }), { target: trigger })
        .then(({ aggregated }) => {
          if (aggregated) this.showMessage('PreCompress', aggregated);
        }),
    );
  }

  /** Advisory: a tool call waits for the person's approval. */
  notify(info: { message: string; details: Record<string, unknown> }): void {
    if (!this.has('Notification')) return;
    const fields = () => ({
      notification_type: 'ToolPermission',
      message: info.message,
      details: info.details,
    });
    void this.track(
      this.executor.fire('Notification', fields).then(({ aggregated }) => {
        if (aggregated) this.showMessage('Notification', aggregated);
      }),
    );
  }

  /** Waits for advisory hooks still running (each is bounded by its own timeout). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private track(work: Promise<unknown>): Promise<void> {
    const tracked: Promise<void> = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
    return tracked;
  }

  private showMessage(event: HookEventName, output: HookOutput): void {
    if (output.systemMessage)
      this.executor.report({ severity: 'info', event, message: output.systemMessage });
  }
}

/** `continue: false` first, then a blocking decision. */
function haltOf(output: HookOutput): HookHalt | undefined {
  if (output.continue === false) {
    return { action: 'stop', reason: effectiveReason(output), message: displayReason(output) };
  }
  if (isBlockingDecision(output.decision)) {
    return { action: 'block', reason: effectiveReason(output), message: displayReason(output) };
  }
  return undefined;
}

function toolFields(info: ToolHookInput): Record<string, unknown> {
  return {
    tool_name: info.toolName,
    tool_input: info.toolInput,
    ...(info.mcpContext ? { mcp_context: info.mcpContext } : {}),
    ...(info.originalRequestName ? { original_request_name: info.originalRequestName } : {}),
  };
}

/** A sequential BeforeModel chain: the next hook sees the request as the previous one left it. */
function patchHookRequest(current: unknown, patch: Record<string, unknown>): Record<string, unknown> {
  const base = isRecord(current) ? current : {};
  return {
    ...base,
    ...patch,
    config: {
      ...(isRecord(base.config) ? base.config : {}),
      ...(isRecord(patch.config) ? patch.config : {}),
    },
  };
}

/** A synthetic answer without a finish reason would be taken for a broken stream and retried. */
function withStopReason(response: GenerateResponse): GenerateResponse {
  return {
    ...response,
    candidates: (response.candidates ?? []).map((candidate) => ({
      ...candidate,
      finishReason: candidate.finishReason ?? 'STOP',
    })),
  };
}
