import type { BudgetLimits } from '../agent/budgets';
import type { ContentGenerator } from '../contracts/content-generator';
import { missingKeyMessage, ProviderConfigError, ProviderResolver } from '../llm/providers/registry';
import { ProviderRouter } from '../llm/providers/router';
import type { ApprovalMode, PolicyChecker } from '../scheduler/policy/policy';
import type { ConfirmHandler } from '../scheduler/scheduler';
import { type ApprovalLockdown, decideApprovalMode } from '../session/approval-mode-gate';
import { Session } from '../session/session';
import { builtinTools } from '../tools/builtin/index';
import { ToolRegistry } from '../tools/registry';
import type { Tool } from '../tools/tool';
import { Workspace } from '../tools/workspace';
import { sanitizeEnv } from '../utils/env';

/** Everything a program chooses when it runs kodo; every field but `cwd` has a default. */
export interface CreateSessionOptions {
  /** The project directory: file tools stay inside it. */
  cwd: string;
  /** `provider:model` (`gemini:gemini-2.5-flash`, `openai:gpt-5`, `anthropic:…`, `ollama:…`) or a bare Gemini id. */
  model?: string;
  /** Where API keys and base URLs are read (default `process.env`); never passed to commands. */
  env?: NodeJS.ProcessEnv;
  /** Your own model backend instead of the built-in providers; `model` is then sent as it is. */
  generator?: ContentGenerator;
  /** `default` (the default): reads run, everything else asks; `auto_edit`, `yolo`, `plan`. */
  approvalMode?: ApprovalMode;
  /**
   * Modes this session may never enter (`{ yoloRefusedBy: 'security.disableYoloMode' }`), as kodo's
   * settings lock them: `approvalMode` and `setApprovalMode` are refused past it.
   */
  approvalLockdown?: ApprovalLockdown;
  /** Rules beyond the approval mode (e.g. a `PolicyEngine` loaded from TOML files). */
  policy?: PolicyChecker;
  /** Answers approval questions; without it, calls that would ask are refused (headless). */
  confirm?: ConfirmHandler;
  /** Tools added to (or, with `builtinTools: false`, instead of) kodo's own. */
  tools?: Tool[];
  builtinTools?: boolean;
  /** Replaces kodo's system prompt. */
  systemInstruction?: string;
  /** Hard limits on cost, tokens, tool calls and time for the whole session. */
  budgets?: BudgetLimits;
  /** Model round trips allowed for one prompt (default 100). */
  maxTurnsPerPrompt?: number;
}

/** Thrown by `createSession` when the model cannot be used (unknown provider, missing key). */
export class SessionSetupError extends Error {
  override readonly name = 'SessionSetupError';
}

const DEFAULT_MODEL = 'gemini-2.5-pro';

/**
 * A Session ready for `sendMessage`: the provider its model names, kodo's built-in tools in a
 * workspace rooted at `cwd`, and the approval mode's policy. Nothing is read from settings
 * files: a program says what it wants.
 */
export function createSession(options: CreateSessionOptions): Session {
  const env = options.env ?? process.env;
  const { generator, model } = options.generator
    ? { generator: options.generator, model: options.model ?? DEFAULT_MODEL }
    : providerFor(options.model ?? DEFAULT_MODEL, env);
  const tools = [...(options.builtinTools === false ? [] : builtinTools()), ...(options.tools ?? [])];
  const first = decideApprovalMode(
    { mode: options.approvalMode ?? 'default', source: 'sdk' },
    { lockdown: options.approvalLockdown ?? {} },
  );
  if (!first.ok) throw new SessionSetupError(first.message);
  return new Session({
    generator,
    model,
    tools: new ToolRegistry(tools),
    toolContext: {
      workspace: new Workspace({ roots: [options.cwd] }),
      env: sanitizeEnv(env),
      shellInactivityTimeoutMs: 300_000,
    },
    approvalMode: first.mode,
    ...(options.approvalLockdown ? { approvalLockdown: options.approvalLockdown } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.confirm ? { confirm: options.confirm } : {}),
    ...(options.systemInstruction !== undefined ? { systemInstruction: options.systemInstruction } : {}),
    ...(options.budgets ? { budgets: options.budgets } : {}),
    ...(options.maxTurnsPerPrompt !== undefined ? { maxTurnsPerPrompt: options.maxTurnsPerPrompt } : {}),
  });
}

function providerFor(spec: string, env: NodeJS.ProcessEnv): { generator: ContentGenerator; model: string } {
  try {
    const resolver = new ProviderResolver({ env });
    const { connection, spec: model } = resolver.resolve(spec);
    if (connection.missingKey) throw new SessionSetupError(missingKeyMessage(connection));
    return { generator: new ProviderRouter({ resolver, env, defaultModel: model }), model };
  } catch (error) {
    if (error instanceof ProviderConfigError) throw new SessionSetupError(error.message);
    throw error;
  }
}
