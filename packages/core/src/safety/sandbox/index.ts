export { BWRAP_MISSING_MESSAGE, BwrapSandbox, bwrapArgs, probeBwrap, SANDBOX_ENV_VALUE } from './bwrap';
export {
  resolveSandboxChoice,
  type SandboxChoice,
  type SandboxChoiceInput,
  SandboxError,
  type SandboxMode,
  type SandboxSettings,
} from './config';
export { createSandbox, findOnPath, type SandboxSetup, sandboxPolicy } from './create';
export { SeatbeltSandbox, seatbeltProfile } from './seatbelt';
export type {
  CommandSandbox,
  CommandSpec,
  PreparedCommand,
  SandboxKind,
  SandboxPolicy,
  SandboxStatus,
} from './types';
