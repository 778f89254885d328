import { join } from 'node:path';
import {
  type ApprovalMode,
  type ConfirmHandler,
  DEFAULT_OUTPUT_THRESHOLD_CHARS,
  kodoHome,
  lazyBuiltinTools,
  projectTempDir,
  type RetryPolicy,
  Session,
  type Settings,
  sanitizeEnv,
  ToolRegistry,
  Workspace,
} from '@kodo/core/engine';
import type { CliArgs } from './args';
import { type BuiltGenerator, buildGenerator } from './generator';

export const DEFAULT_MODEL = 'gemini-2.5-pro';
const SHELL_INACTIVITY_TIMEOUT_MS = 300_000;

export interface CliSessionSetup {
  args: CliArgs;
  settings: Settings;
  cwd: string;
  env: NodeJS.ProcessEnv;
  sessionId: string;
  /** The interactive UI's approval dialog; headless passes none. */
  confirm?: ConfirmHandler;
}

export interface CliSession {
  session: Session;
  model: string;
  generator: BuiltGenerator;
}

/**
 * Builds the Session every front end drives (headless, interactive) from flags, settings and the
 * environment: the model backend, the tools and what they may touch, approval, limits.
 */
export async function createCliSession(setup: CliSessionSetup): Promise<CliSession> {
  const { args, settings, env, cwd, sessionId } = setup;
  const model = args.model ?? env.KODO_MODEL ?? env.GEMINI_MODEL ?? settings.model?.name ?? DEFAULT_MODEL;
  const generator = await buildGenerator({
    fakeResponses: args.fakeResponses,
    fakeResponsesStrict: args.fakeResponsesStrict,
    recordResponses: args.recordResponses,
    debug: args.debug,
    sessionId,
    env,
  });
  const tempDir = projectTempDir(cwd, env);
  const session = new Session({
    sessionId,
    generator: generator.generator,
    model,
    tools: new ToolRegistry(lazyBuiltinTools()),
    toolContext: {
      workspace: new Workspace({ roots: [cwd], tempDir }),
      env: sanitizeEnv(env),
      shellInactivityTimeoutMs: SHELL_INACTIVITY_TIMEOUT_MS,
      memoryFilePath: join(kodoHome(env), 'KODO.md'),
    },
    approvalMode: resolveApprovalMode(args, settings),
    maxSessionTurns: settings.model?.maxSessionTurns ?? -1,
    retry: retryOverrides(env),
    outputLimit: { thresholdChars: outputThreshold(settings), spillDir: tempDir },
    ...(setup.confirm ? { confirm: setup.confirm } : {}),
  });
  return { session, model, generator };
}

function outputThreshold(settings: Settings): number {
  const value = settings.tools?.truncateToolOutputThreshold;
  return typeof value === 'number' && Number.isFinite(value) ? value : DEFAULT_OUTPUT_THRESHOLD_CHARS;
}

function resolveApprovalMode(args: CliArgs, settings: Settings): ApprovalMode {
  if (args.approvalMode) return args.approvalMode;
  const fromSettings = settings.general?.defaultApprovalMode;
  // yolo is never taken from settings: only an explicit flag turns it on.
  if (fromSettings === 'default' || fromSettings === 'auto_edit' || fromSettings === 'plan')
    return fromSettings;
  return 'default';
}

/** `KODO_RETRY_BASE_MS` scales retry delays (tests and impatient gateways); unset = defaults. */
function retryOverrides(env: NodeJS.ProcessEnv): Partial<RetryPolicy> {
  const base = Number(env.KODO_RETRY_BASE_MS);
  if (!Number.isFinite(base) || base < 0 || env.KODO_RETRY_BASE_MS === undefined) return {};
  return { initialDelayMs: base * 5, maxDelayMs: base * 30, streamInitialDelayMs: base };
}
