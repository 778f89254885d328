import { isatty } from 'node:tty';
import { isSecretEnvName, type LoadedSettings } from '@kodo/core/engine';
import { runHeadless } from './headless/run-headless';
import { onDemand } from './on-demand';
import { scrubInitialEnviron } from './scrub-environ';
import { ArgsError, type CliArgs, parseCliArgs } from './shared/args';
import { ExitCode } from './shared/exit-codes';
import { readPipedStdin } from './shared/stdin';
import { gateFolderTrust } from './shared/trust-gate';

/** Facts the entry point already holds (passed in so this module shares no chunk with it). */
export interface CliIdentity {
  version: string;
  helpText: string;
  /** A subcommand's usage when argv asks for it (help.ts's `commandHelp`). */
  commandHelp?: (argv: readonly string[]) => string | undefined;
}

/** Runs kodo with the given arguments and returns the process exit code. */
export async function runCli(argv: string[], identity: CliIdentity): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    process.stderr.write(`[ERROR] ${error.message} (see kodo --help)\n`);
    return error.exitCode ?? ExitCode.error;
  }
  if (args.commandHelp) {
    process.stdout.write(identity.commandHelp?.(argv) ?? identity.helpText);
    return ExitCode.ok;
  }
  if (args.version) {
    process.stdout.write(`${identity.version}\n`);
    return ExitCode.ok;
  }
  // API keys out of /proc/<pid>/environ before anything runs for long (scrub-environ.ts).
  scrubInitialEnviron(isSecretEnvName);
  if (args.help) {
    process.stdout.write(identity.helpText);
    return ExitCode.ok;
  }
  const command = await runSubcommand(args);
  if (command !== undefined) return command;

  const worktree = args.worktree !== undefined ? await enterWorktreeOf(args.worktree) : undefined;
  if (typeof worktree === 'number') return worktree;
  try {
    // An ACP agent is headless: its person is behind the editor, which asks through the protocol.
    const interactive = !args.acp && isInteractive(args);
    const loaded = await openFolder(args, { interactive });
    if (typeof loaded === 'number') return loaded;
    const cwd = process.cwd();
    const settings = loaded.merged;
    if (args.jsonSchema !== undefined && (interactive || args.acp)) {
      process.stderr.write(
        '[ERROR] --json-schema needs a headless run (-p) with -o json or -o stream-json (see kodo --help)\n',
      );
      return ExitCode.error;
    }
    if (args.acp) {
      // The protocol library loads only here: `kodo -p` never pays for it.
      const { runAcp } = await onDemand.acp();
      return await runAcp({ args, settings, settingsScopes: loaded.scopes, env: process.env });
    }
    if (interactive) {
      // Ink and React load only here: headless runs, --version and --help never pay for them.
      const { runInteractive } = await onDemand.interactive();
      return await runInteractive({
        args,
        settings: loaded,
        cwd,
        env: process.env,
        version: identity.version,
        initialPrompt: args.promptInteractive ?? args.query,
      });
    }
    if (args.promptInteractive !== undefined && !isatty(0)) {
      process.stderr.write(
        '[ERROR] The --prompt-interactive flag cannot be used when input is piped from stdin.\n',
      );
      return ExitCode.input;
    }
    return await runHeadless({
      args,
      settings,
      settingsScopes: loaded.scopes,
      cwd,
      env: process.env,
      readStdin: readPipedStdin,
      // Read when first written to: the streams are created then (see main.ts), after the request.
      streams: {
        get stdout() {
          return process.stdout;
        },
        get stderr() {
          return process.stderr;
        },
      },
    });
  } finally {
    if (worktree) await leaveWorktreeOf(worktree);
  }
}

/** Runs the subcommand (`kodo mcp …`, `--list-sessions`…) args name; undefined when they name none. */
async function runSubcommand(args: CliArgs): Promise<number | undefined> {
  // A function: touching process.stdout creates the stream (~1 ms), which a `-p` run puts off
  // until after its request (main.ts).
  const io = () => ({ cwd: process.cwd(), env: process.env, stdout: process.stdout, stderr: process.stderr });
  const commandArgs = args.commandArgs ?? [];
  switch (args.command) {
    case 'demo': {
      const { runDemo } = await onDemand.demo();
      return runDemo({ stdout: process.stdout, stderr: process.stderr });
    }
    case 'mcp': {
      const { runMcpCommand } = await onDemand.mcpCommand();
      return runMcpCommand({ args: commandArgs, ...io() });
    }
    case 'extensions':
    case 'extension': {
      const { runExtensionsCommand } = await onDemand.extensionsCommand();
      return runExtensionsCommand({ args: commandArgs, ...io(), interactive: isatty(0) && isatty(1) });
    }
    case 'skills':
    case 'skill': {
      const { runSkillsCommand } = await onDemand.skillsCommand();
      return runSkillsCommand({ args: commandArgs, ...io() });
    }
    case 'agents':
    case 'agent': {
      const { runAgentsCommand } = await onDemand.agentsCommand();
      return runAgentsCommand({ args: commandArgs, ...io() });
    }
    case 'models': {
      const { runModelsCommand } = await onDemand.modelsCommand();
      return runModelsCommand({ args: commandArgs, ...io() });
    }
    case 'doctor': {
      const { runDoctorCommand } = await onDemand.doctorCommand();
      return runDoctorCommand({ args: commandArgs, ...io() });
    }
    case 'completion': {
      const { runCompletionCommand } = await onDemand.completionCommand();
      return runCompletionCommand({ args: commandArgs, stdout: process.stdout, stderr: process.stderr });
    }
  }
  if (args.listExtensions) {
    const { listExtensionsBrief } = await onDemand.extensionsCommand();
    return listExtensionsBrief({ cwd: process.cwd(), env: process.env, stdout: process.stdout });
  }
  if (args.command === 'hooks') {
    const { runHooksCommand } = await onDemand.hooksCommand();
    return runHooksCommand({ args: commandArgs, ...io() });
  }
  if (args.listSessions || args.deleteSession !== undefined) {
    const { deleteSessionCommand, listSessionsCommand } = await onDemand.sessions();
    const place = { cwd: process.cwd(), env: process.env };
    const streams = { stdout: process.stdout, stderr: process.stderr };
    if (args.listSessions) return listSessionsCommand(place, streams);
    return deleteSessionCommand(args.deleteSession!, place, streams);
  }
  return undefined;
}

interface EnteredWorktree {
  worktree: Awaited<ReturnType<Awaited<ReturnType<typeof onDemand.worktree>>['enterWorktree']>>;
  /** The folder kodo was started in, to go back to. */
  started: string;
}

/**
 * `-w/--worktree`: the session runs in a new git worktree (worktree.ts); at exit an unchanged one
 * is removed and a changed one named (leaveWorktreeOf). An exit code when it cannot be made.
 */
async function enterWorktreeOf(name: string): Promise<EnteredWorktree | number> {
  const { enterWorktree, WorktreeError } = await onDemand.worktree();
  let worktree: EnteredWorktree['worktree'];
  try {
    worktree = await enterWorktree({ cwd: process.cwd(), name, env: process.env });
  } catch (error) {
    if (!(error instanceof WorktreeError)) throw error;
    process.stderr.write(`[ERROR] ${error.message}\n`);
    return ExitCode.input;
  }
  process.stderr.write(`[INFO] Working in the worktree ${worktree.path} (branch ${worktree.branch}).\n`);
  const started = process.cwd();
  process.chdir(worktree.cwd);
  return { worktree, started };
}

async function leaveWorktreeOf({ worktree, started }: EnteredWorktree): Promise<void> {
  const { leaveWorktree, worktreeOutcomeLine } = await onDemand.worktree();
  process.chdir(started);
  const outcome = await leaveWorktree(worktree, process.env);
  process.stderr.write(`[INFO] ${worktreeOutcomeLine(outcome)}\n`);
}

/**
 * The folder's settings, once it is trusted: an untrusted folder's settings are never read, so
 * a cloned repository cannot configure kodo (hooks, MCP servers, approval mode) before the
 * person trusts it. What was skipped or wrong is said once, before anything else; an exit code
 * when the folder cannot be used.
 */
async function openFolder(args: CliArgs, mode: { interactive: boolean }): Promise<LoadedSettings | number> {
  const gate = await gateFolderTrust({
    cwd: process.cwd(),
    env: process.env,
    args,
    interactive: mode.interactive,
    ask: async (folder, options) => {
      const { askTrustOnTerminal } = await onDemand.trustPrompt();
      return askTrustOnTerminal(folder, { input: process.stdin, output: process.stdout }, options);
    },
  });
  if (!gate.ok) {
    process.stderr.write(`[ERROR] ${gate.message}\n`);
    return gate.exitCode;
  }
  if (gate.notice) process.stderr.write(`${gate.notice}\n`);
  if (gate.envFile) {
    for (const message of gate.envFile.skipped) process.stderr.write(`[WARNING] ${message}\n`);
    if (args.debug) {
      const names = gate.envFile.applied.join(', ') || 'no new variables';
      process.stderr.write(`[DEBUG] Loaded ${names} from ${gate.envFile.path}\n`);
    }
  }
  // Settings values that were wrong and left out.
  for (const problem of gate.settings.problems ?? [])
    process.stderr.write(`[WARNING] ${problem} (ignored)\n`);
  return gate.settings;
}

/** Headless when in CI, when stdin or stdout is not a terminal, or with -p, as Gemini CLI decides. */
function isInteractive(args: CliArgs): boolean {
  if (args.promptInteractive !== undefined) return isatty(0);
  if (args.prompt !== undefined) return false;
  if (process.env.CI === 'true' || process.env.GITHUB_ACTIONS === 'true') return false;
  return isatty(0) && isatty(1);
}
