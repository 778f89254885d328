import { Chat } from '../agent/chat';
import { AgentClient } from '../agent/client';
import type { AgentEvent } from '../agent/events';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../agent/retry';
import type { TurnOutcome } from '../agent/turn';
import type { ContentGenerator } from '../llm/content-generator';
import type { Content, GenerationConfig, Part } from '../llm/types';
import { environmentContext } from '../prompts/environment';
import { buildSystemPrompt } from '../prompts/system-prompt';
import { ApprovalModePolicy } from '../scheduler/policy/approval-mode-policy';
import type { ApprovalMode, PolicyChecker } from '../scheduler/policy/policy';
import { type ConfirmHandler, Scheduler } from '../scheduler/scheduler';
import { DEFAULT_OUTPUT_THRESHOLD_CHARS, type OutputLimit } from '../tools/output-limit';
import type { ToolRegistry } from '../tools/registry';
import type { TodoItem, ToolContext, ToolModelClient } from '../tools/tool';
import { AsyncQueue } from '../utils/async-queue';
import { newSessionId } from '../utils/ids';
import { SessionStats } from './stats';

export interface SessionOptions {
  generator: ContentGenerator;
  model: string;
  tools: ToolRegistry;
  toolContext: ToolContext;
  approvalMode?: ApprovalMode;
  policy?: PolicyChecker;
  /** Present in interactive front ends; without it, calls that need approval are refused. */
  confirm?: ConfirmHandler;
  /** Model round-trips allowed in the session; negative = unlimited. */
  maxSessionTurns?: number;
  retry?: Partial<RetryPolicy>;
  sessionId?: string;
  /** Replaces kodo's system prompt. */
  systemInstruction?: string;
  /** Add date, OS, cwd and a listing to the first user message (default true). */
  includeEnvironmentContext?: boolean;
  generationConfig?: GenerationConfig;
  history?: Content[];
  /** Cap on each tool output the model reads (default: 40,000 characters, nothing saved). */
  outputLimit?: OutputLimit;
}

export type SessionStatus = 'completed' | 'cancelled' | 'error' | 'invalid_stream' | 'max_session_turns';

export interface SessionResult {
  status: SessionStatus;
  /** Answer text of the final model turn (the one that asked for no tools). */
  text: string;
  error?: { message: string; status?: number; exitCode?: number };
}

/**
 * The one driver of the agent loop, shared by headless mode, the interactive UI, the demo and the
 * SDK: model turn → scheduler → function responses → next turn, until the model stops asking for
 * tools. Front ends only consume the AgentEvent stream.
 */
export class Session {
  readonly id: string;
  readonly stats = new SessionStats();
  readonly client: AgentClient;
  private readonly scheduler: Scheduler;
  private approvalMode: ApprovalMode;
  private needsEnvironmentContext: boolean;
  private readonly cwd: string;
  private promptCount = 0;
  private todoItems: TodoItem[] = [];
  /** The tool context as tools see it, with the session's model client and todo list filled in. */
  readonly toolContext: ToolContext;

  constructor(options: SessionOptions) {
    this.id = options.sessionId ?? newSessionId();
    this.approvalMode = options.approvalMode ?? 'default';
    this.needsEnvironmentContext = (options.includeEnvironmentContext ?? true) && !options.history?.length;
    this.cwd = options.toolContext.workspace.cwd;
    const interactive = options.confirm !== undefined;
    const chat = new Chat({
      generator: options.generator,
      model: options.model,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      observer: this.stats,
      ...(options.history ? { history: options.history } : {}),
    });
    const fixedInstruction = options.systemInstruction;
    this.client = new AgentClient({
      chat,
      systemInstruction: () =>
        fixedInstruction ?? buildSystemPrompt({ approvalMode: this.approvalMode, interactive }),
      tools: () => options.tools.declarations(),
      maxSessionTurns: options.maxSessionTurns ?? -1,
      ...(options.generationConfig ? { generationConfig: options.generationConfig } : {}),
    });
    this.toolContext = {
      ...options.toolContext,
      model: options.toolContext.model ?? this.modelClient(options.generator),
      todos: options.toolContext.todos ?? {
        get: () => structuredClone(this.todoItems),
        set: (items) => {
          this.todoItems = structuredClone(items);
        },
      },
    };
    this.scheduler = new Scheduler({
      registry: options.tools,
      context: this.toolContext,
      policy: options.policy ?? new ApprovalModePolicy(),
      getApprovalMode: () => this.approvalMode,
      ...(options.confirm ? { confirm: options.confirm } : {}),
      outputLimit: options.outputLimit ?? {
        thresholdChars: DEFAULT_OUTPUT_THRESHOLD_CHARS,
        spillDir: undefined,
      },
    });
  }

  /** The todo list `write_todos` keeps, for front ends to show. */
  todos(): TodoItem[] {
    return this.toolContext.todos?.get() ?? [];
  }

  /** One-shot model calls for tools, always on the session's current model. */
  private modelClient(generator: ContentGenerator): ToolModelClient {
    const chat = () => this.client.chat;
    return {
      provider: generator.provider,
      get model() {
        return chat().getModel();
      },
      generateContent: (request, signal) =>
        generator.generateContent({ ...request, model: chat().getModel() }, signal),
    };
  }

  getApprovalMode(): ApprovalMode {
    return this.approvalMode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.approvalMode = mode;
  }

  get model(): string {
    return this.client.chat.getModel();
  }

  history(): Content[] {
    return this.client.chat.getHistory();
  }

  /** Runs one user prompt to completion, streaming every event; never throws once started. */
  async *sendMessage(input: string | Part[], signal: AbortSignal): AsyncGenerator<AgentEvent, SessionResult> {
    this.promptCount += 1;
    const promptId = `${this.id}########${this.promptCount}`;
    let parts: Part[] = typeof input === 'string' ? [{ text: input }] : input;
    if (this.needsEnvironmentContext) {
      this.needsEnvironmentContext = false;
      parts = [{ text: environmentContext({ cwd: this.cwd }) }, ...parts];
    }

    for (;;) {
      let lastError: SessionResult['error'];
      const stream = this.client.sendMessageStream(parts, signal, promptId);
      let next = await stream.next();
      while (!next.done) {
        const event = next.value;
        if (event.type === 'error') {
          lastError = {
            message: event.message,
            ...(event.status !== undefined ? { status: event.status } : {}),
            ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}),
          };
        }
        yield event;
        next = await stream.next();
      }
      const turn = next.value;
      if (turn.outcome !== 'completed') {
        return {
          status: statusOf(turn.outcome),
          text: turn.text,
          ...(lastError ? { error: lastError } : {}),
        };
      }
      if (turn.pendingToolCalls.length === 0) {
        return { status: 'completed', text: turn.text };
      }
      const completed = yield* this.runTools(turn.pendingToolCalls, signal);
      parts = completed.flatMap((call) => call.response.responseParts);
      if (signal.aborted) {
        // Every call was answered (cancelled ones too): record them so the history stays valid.
        this.client.chat.addUserContent(parts);
        yield { type: 'user_cancelled' };
        return { status: 'cancelled', text: '' };
      }
    }
  }

  private async *runTools(
    calls: Parameters<Scheduler['schedule']>[0],
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, Awaited<ReturnType<Scheduler['schedule']>>> {
    const queue = new AsyncQueue<AgentEvent>();
    const done = this.scheduler
      .schedule(calls, signal, (event) => queue.push(event))
      .finally(() => queue.close());
    for await (const event of queue) yield event;
    const completed = await done;
    for (const call of completed) this.stats.recordToolCall(call);
    return completed;
  }
}

function statusOf(outcome: TurnOutcome): SessionStatus {
  return outcome === 'completed' ? 'completed' : outcome;
}
