import { tmpdir } from 'node:os';
import { geminiHome, kodoHome } from '../config/paths';
import { projectTempDir } from '../config/project';
import type { ToolsSettings } from '../config/settings-types';
import { loadCheckpointing } from '../on-demand';
import type { CheckpointStore } from '../safety/checkpoints';
import {
  type CommandSandbox,
  createSandbox,
  resolveSandboxChoice,
  SandboxError,
} from '../safety/sandbox/index';
import { RuntimeSetupError } from './setup-error';

/**
 * The session's sandbox and checkpoints from flags, environment and settings. Kept apart from the
 * session factory so each stays one purpose; the factory passes the results to the Session.
 */

export interface SafetyOptions {
  sandbox?: CommandSandbox;
  /** The sandbox for hook commands too (`tools.sandbox.hooks`); absent: hooks run unconfined. */
  hookSandbox?: CommandSandbox;
  checkpointing?: {
    store: CheckpointStore;
    shell: boolean;
    onError: (message: string) => void;
    promptSnapshots: boolean;
  };
}

export interface SafetySetup {
  /** `-s`: the sandbox is required. */
  sandboxFlag: boolean;
  /** The `tools.sandbox` setting. */
  sandboxSetting: ToolsSettings['sandbox'];
  /** Present when `general.checkpointing.enabled`; `shell` adds shell commands. */
  checkpointing?: { shell: boolean };
  cwd: string;
  /** Every workspace root (cwd first): the sandbox binds them writable. */
  roots?: string[];
  env: NodeJS.ProcessEnv;
  /** An interactive front end (it can `/rewind`, so prompts are snapshotted as they start). */
  interactive: boolean;
  /** Warnings (default: stderr `[WARNING] …`). */
  onWarning?: (message: string) => void;
}

export async function safetyOptions(setup: SafetySetup): Promise<SafetyOptions> {
  const warn = setup.onWarning ?? ((message: string) => process.stderr.write(`[WARNING] ${message}\n`));
  const { sandbox, hooks } = await sandboxFor(setup, warn);
  const checkpointing = await checkpointingFor(setup, warn);
  return {
    ...(sandbox ? { sandbox } : {}),
    ...(sandbox && hooks ? { hookSandbox: sandbox } : {}),
    ...(checkpointing ? { checkpointing } : {}),
  };
}

/**
 * The sandbox for shell commands. A sandbox asked for (`-s`, `KODO_SANDBOX`, `tools.sandbox`) that
 * cannot be used stops the assembly (`sandbox`) before anything runs; the automatic one (Linux default)
 * is tried at the first command and, if bwrap cannot start here, commands run unconfined after
 * one warning.
 */
async function sandboxFor(
  setup: SafetySetup,
  warn: (message: string) => void,
): Promise<{ sandbox?: CommandSandbox; hooks: boolean }> {
  const { env, cwd } = setup;
  try {
    const choice = resolveSandboxChoice({
      flag: setup.sandboxFlag,
      env,
      setting: setup.sandboxSetting,
      platform: process.platform,
    });
    const sandbox = createSandbox(choice, {
      roots: setup.roots ?? [cwd],
      tempDir: tmpdir(),
      hiddenHomes: [kodoHome(env), geminiHome(env)],
      projectTempDir: projectTempDir(cwd, env),
      env,
      onUnavailable: (message) => warn(`${message} Shell commands run without a sandbox.`),
    });
    if (sandbox && choice.mode === 'required') {
      const status = await sandbox.status();
      if (!status.ok) throw new SandboxError(status.message);
    }
    return { ...(sandbox ? { sandbox } : {}), hooks: choice.hooks };
  } catch (error) {
    if (error instanceof SandboxError) throw new RuntimeSetupError(error.message, 'sandbox', 'SandboxError');
    throw error;
  }
}

/** Off by default (`general.checkpointing`): the store and its git plumbing load only when on. */
async function checkpointingFor(
  setup: SafetySetup,
  warn: (message: string) => void,
): Promise<SafetyOptions['checkpointing']> {
  const config = setup.checkpointing;
  if (!config) return undefined;
  const { env, cwd } = setup;
  const { CheckpointStore, checkpointHistoryDir } = await loadCheckpointing();
  return {
    store: new CheckpointStore({
      workspaceRoot: cwd,
      historyDir: checkpointHistoryDir(kodoHome(env), cwd),
      ...(env.PATH !== undefined ? { path: env.PATH } : {}),
    }),
    shell: config.shell,
    onError: warn,
    promptSnapshots: setup.interactive,
  };
}
