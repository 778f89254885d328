import type { SandboxSettings } from '../../config/settings-types';
import type { SandboxKind } from '../../contracts/sandbox';
import { isRecord } from '../../utils/is-record';

/**
 * Which sandbox a session uses, from (strongest first) `KODO_SANDBOX` / `GEMINI_SANDBOX`, the
 * `-s/--sandbox` flag, and the `tools.sandbox` setting. Values: a boolean, `bwrap` or
 * `sandbox-exec`, or `{enabled, command, allowedPaths, networkAccess, hooks, hiddenPaths,
 * visiblePaths, allowUnixSockets, protectControlFiles, pidNamespace}` (docs/security.md). Nothing set means `auto` on Linux (on when bwrap is installed and works here)
 * and off elsewhere.
 */

export type { SandboxSettings } from '../../config/settings-types';

export type SandboxMode = 'off' | 'auto' | 'required';

export interface SandboxChoice {
  mode: SandboxMode;
  /** The implementation; absent when off. */
  command?: SandboxKind;
  allowedPaths: string[];
  network: boolean;
  /** Whether hook commands run in the sandbox (see SandboxSettings.hooks). */
  hooks: boolean;
  hiddenPaths: string[];
  visiblePaths: string[];
  allowUnixSockets: string[];
  protectControlFiles: boolean;
  pidNamespace: boolean;
  /** Where the decision came from, for messages. */
  source: 'env' | 'flag' | 'settings' | 'default' | 'nested';
}

/** A sandbox that was asked for but cannot be used: exit code 44, as in Gemini CLI. */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
}

const UNSUPPORTED = new Set(['docker', 'podman', 'runsc', 'lxc', 'windows-native']);

export interface SandboxChoiceInput {
  /** `-s/--sandbox` was given. */
  flag?: boolean;
  env: NodeJS.ProcessEnv;
  /** The raw `tools.sandbox` setting. */
  setting: unknown;
  platform: NodeJS.Platform;
}

/** Throws SandboxError for values kodo cannot honour (unknown or container sandboxes). */
export function resolveSandboxChoice(input: SandboxChoiceInput): SandboxChoice {
  const choice = chooseSandbox(input);
  const configured = settingOptions(input.setting).hooks;
  return { ...choice, hooks: configured ?? choice.mode === 'required' };
}

function chooseSandbox(input: SandboxChoiceInput): SandboxChoice {
  const options = settingOptions(input.setting);
  const base = {
    allowedPaths: options.allowedPaths ?? [],
    network: options.networkAccess ?? false,
    hooks: false,
    hiddenPaths: options.hiddenPaths ?? [],
    visiblePaths: options.visiblePaths ?? [],
    allowUnixSockets: options.allowUnixSockets ?? [],
    protectControlFiles: options.protectControlFiles ?? true,
    pidNamespace: options.pidNamespace ?? true,
  };
  // Already inside a sandbox (ours or Gemini CLI's): a second layer adds nothing and may not start.
  if (input.env.SANDBOX) return { ...base, mode: 'off', source: 'nested' };
  const kodoEnv = input.env.KODO_SANDBOX?.trim();
  if (kodoEnv) return { ...base, ...modeOf(kodoEnv, input.platform, 'KODO_SANDBOX'), source: 'env' };
  // Gemini CLI's variable and settings may name its container sandboxes: kodo honours the wish
  // for a sandbox with its own.
  const geminiEnv = input.env.GEMINI_SANDBOX?.trim();
  if (geminiEnv) {
    return { ...base, ...modeOf(nativeFor(geminiEnv), input.platform, 'GEMINI_SANDBOX'), source: 'env' };
  }
  if (input.flag) return { ...base, ...modeOf(true, input.platform, '--sandbox'), source: 'flag' };
  const value = isRecord(input.setting) ? settingValue(input.setting) : input.setting;
  if (value !== undefined) {
    return { ...base, ...modeOf(nativeFor(value), input.platform, 'tools.sandbox'), source: 'settings' };
  }
  if (input.platform === 'linux') return { ...base, mode: 'auto', command: 'bwrap', source: 'default' };
  return { ...base, mode: 'off', source: 'default' };
}

/** `{enabled, command}` as the equivalent plain value; undefined = automatic. */
function settingValue(setting: Record<string, unknown>): unknown {
  if (setting.enabled === false) return false;
  if (typeof setting.command === 'string' && setting.command !== '') return setting.command;
  if (setting.enabled === true) return true;
  return undefined;
}

/** A container sandbox name (Gemini CLI's) stands for "a sandbox": kodo's native one. */
function nativeFor(value: unknown): unknown {
  return typeof value === 'string' && UNSUPPORTED.has(value.toLowerCase()) ? true : value;
}

function modeOf(
  value: unknown,
  platform: NodeJS.Platform,
  where: string,
): { mode: SandboxMode; command?: SandboxKind } {
  const text = typeof value === 'string' ? value.toLowerCase() : value;
  if (text === false || text === 'false' || text === '0') return { mode: 'off' };
  if (text === true || text === 'true' || text === '1') {
    const command = platformSandbox(platform);
    if (!command) {
      throw new SandboxError(
        `${where} asks for a sandbox, but kodo has none for ${platform}: it uses bubblewrap on Linux and sandbox-exec on macOS.`,
      );
    }
    return { mode: 'required', command };
  }
  if (text === 'bwrap' || text === 'bubblewrap') return { mode: 'required', command: 'bwrap' };
  if (text === 'sandbox-exec' || text === 'seatbelt') return { mode: 'required', command: 'sandbox-exec' };
  if (typeof text === 'string' && UNSUPPORTED.has(text)) {
    throw new SandboxError(
      `${where}: the "${text}" sandbox is not supported by kodo. Use bwrap (Linux) or sandbox-exec (macOS), or true to pick the one for this system.`,
    );
  }
  throw new SandboxError(
    `${where}: invalid sandbox value ${JSON.stringify(value)}. Use true, false, "bwrap" or "sandbox-exec".`,
  );
}

function platformSandbox(platform: NodeJS.Platform): SandboxKind | undefined {
  if (platform === 'linux') return 'bwrap';
  if (platform === 'darwin') return 'sandbox-exec';
  return undefined;
}

function settingOptions(setting: unknown): SandboxSettings {
  if (!isRecord(setting)) return {};
  const strings = (value: unknown) =>
    Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string' && item !== '')
      : undefined;
  const out: SandboxSettings = {};
  const allowedPaths = strings(setting.allowedPaths);
  if (allowedPaths) out.allowedPaths = allowedPaths;
  const hiddenPaths = strings(setting.hiddenPaths);
  if (hiddenPaths) out.hiddenPaths = hiddenPaths;
  const visiblePaths = strings(setting.visiblePaths);
  if (visiblePaths) out.visiblePaths = visiblePaths;
  const allowUnixSockets = strings(setting.allowUnixSockets);
  if (allowUnixSockets) out.allowUnixSockets = allowUnixSockets;
  if (typeof setting.protectControlFiles === 'boolean') out.protectControlFiles = setting.protectControlFiles;
  if (typeof setting.pidNamespace === 'boolean') out.pidNamespace = setting.pidNamespace;
  if (typeof setting.networkAccess === 'boolean') out.networkAccess = setting.networkAccess;
  if (typeof setting.hooks === 'boolean') out.hooks = setting.hooks;
  return out;
}
