import { join } from 'node:path';
import {
  kodoHome,
  type LoadedSettings,
  loadInputFiles,
  type Runtime,
  type RuntimeSession,
  userHome,
} from '@kodo/core/engine';
import { onDemand } from '../on-demand';
import type { CliArgs } from '../shared/args';
import { autoMemoryOn } from '../shared/auto-memory';
import { ExitCode, FatalError } from '../shared/exit-codes';
import { favourMemoryOverSpeed } from '../shared/memory-mode';
import { asFatalError, createCliRuntime } from '../shared/runtime-setup';
import { resolveSessionStart, type SessionStart } from '../shared/sessions';
import { isFolderTrusted } from '../shared/trust-gate';
import { acknowledgeAgentsOnTerminal } from './agent-acknowledgement';
import { extensionSlashCommands } from './commands/extension-commands';
import { builtinCommands } from './commands/registry';
import { ConfirmationBridge } from './confirmation-bridge';
import { extensibilityHandle } from './extensibility-handle';
import { InputHistoryStore } from './input/input-history-store';
import { keybindingsFile, loadKeymap } from './keys/keybindings-file';
import { HighlighterLoader } from './markdown/highlighter-loader';
import { QuestionBridge } from './question-bridge';
import { endInteractiveRun } from './session-exit';
import { StatusLineRunner, statusLineSetting } from './status/status-command';
import { PtyTerminal } from './terminal/pty-terminal';
import { TerminalScreens } from './terminal/terminal-screens';
import { themesFromSettings } from './themes/custom-themes';

export interface InteractiveContext {
  args: CliArgs;
  settings: LoadedSettings;
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** The first prompt (`-i "…"` or a positional query on a terminal). */
  initialPrompt: string | undefined;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  stderr?: NodeJS.WriteStream;
}

/**
 * Interactive mode: builds the session (with the approval dialog as its confirm handler), loads
 * Ink and React (only now: headless runs never load them), runs the UI until the person leaves,
 * then says how to come back to the session.
 */
export async function runInteractive(context: InteractiveContext): Promise<number> {
  const { args, settings, cwd, env } = context;
  const stdout = context.stdout ?? process.stdout;
  const stderr = context.stderr ?? process.stderr;
  const bridge = new ConfirmationBridge();
  const questions = new QuestionBridge();
  const warn = (message: string) => stderr.write(`[WARNING] ${message}\n`);
  // Shell commands run in a pseudo-terminal the person can watch and type into.
  const terminals = new TerminalScreens();
  const terminal = new PtyTerminal({
    screens: terminals,
    size: () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 }),
  });
  const assemble = (sessionId: string): Promise<Runtime> =>
    createCliRuntime({
      args,
      settings: settings.merged,
      cwd,
      env,
      sessionId,
      approvals: { interactive: true, confirm: bridge.handler },
      askUser: questions.handler,
      pseudoTerminal: terminal,
      onSessionWarning: warn,
      onWarning: warn,
    });
  /** A recorded session to continue, as a setup failure the UI can show (not a FatalError). */
  const resumed = (runtime: Runtime, resume: NonNullable<SessionStart['resume']>): Promise<RuntimeSession> =>
    runtime.resumeSession(resume).catch((error: unknown) => {
      throw asFatalError(error);
    });
  // Project agent files that are new or changed load only once the person acknowledges them.
  await acknowledgeAgentsOnTerminal({
    cwd,
    env,
    trusted: isFolderTrusted({ cwd, env, args, settings: settings.merged }),
    input: context.stdin ?? process.stdin,
    output: stdout,
  });
  // One runtime for the whole run: /clear, /resume and /fork take new sessions from it, and its
  // close() below ends them all, in its one order.
  let runtime: Runtime;
  let created: RuntimeSession;
  try {
    const info = (message: string) => stderr.write(`[INFO] ${message}\n`);
    const start = await resolveSessionStart(args, { cwd, env, onWarning: warn, onInfo: info });
    runtime = await assemble(start.sessionId);
    created = start.resume
      ? await resumed(runtime, start.resume)
      : await runtime.newSession({ sessionId: start.sessionId });
    if (start.resume && !start.imported) info(`Resumed session ${start.sessionId}.`);
  } catch (error) {
    if (!(error instanceof FatalError)) throw error;
    stderr.write(`[ERROR] ${error.message}\n`);
    return error.exitCode;
  }
  // SessionStart hooks: their context joins the conversation (Session.start).
  await created.session.start(args.resume !== undefined ? 'resume' : 'startup');
  /** The session in use: /clear and /resume replace it. */
  let current = created.session;
  if (runtime.generator.debugLogPath) stderr.write(`[INFO] Debug log: ${runtime.generator.debugLogPath}\n`);

  const themes = themesFromSettings(settings.merged, {
    cwd,
    home: userHome(env),
    extensionThemes: (runtime.extensibility?.loaded.active ?? [])
      .filter((extension) => extension.themes !== undefined)
      .map((extension) => ({ extension: extension.name, themes: extension.themes ?? [] })),
  });
  for (const warning of themes.warnings) warn(warning);
  const statusSetting = statusLineSetting(settings.merged);
  const statusRunner = statusSetting
    ? new StatusLineRunner({ command: statusSetting.command, cwd, env })
    : undefined;
  const keys = loadKeymap(keybindingsFile(kodoHome(env)));
  for (const warning of keys.warnings) warn(warning);
  favourMemoryOverSpeed();
  const { mountApp } = await loadUi();
  const fileIndex = new (await loadInputFiles()).FileIndex(cwd);
  const historyStore = new InputHistoryStore(join(kodoHome(env), 'input-history.jsonl'));
  const sessionId = await mountApp(
    {
      session: created.session,
      tools: runtime.tools,
      ...(runtime.sandbox ? { sandbox: runtime.sandbox } : {}),
      ...(created.resumed ? { resumedMessages: created.resumed.messages } : {}),
      createSession: async () => {
        // `/clear` ends this session and starts another, as Gemini CLI does: SessionEnd
        // (`clear`) for the old one, then SessionStart (`clear`) for the new one. The run's MCP
        // servers, tools and background commands stay.
        const next = await runtime.clearSession(current);
        current = next.session;
        return next.session;
      },
      resumeSession: async (identifier) => {
        const notes: string[] = [];
        const note = (message: string) => notes.push(message);
        const start = await resolveSessionStart(
          { resume: identifier },
          { cwd, env, onWarning: note, onInfo: note },
        ).catch((error: unknown) => {
          throw error instanceof FatalError ? new Error(error.message) : error;
        });
        if (!start.resume) throw new Error('No previous sessions found for this project.');
        if (start.sessionId === current.id) throw new Error('That is the session in use.');
        const next = await resumed(runtime, start.resume).catch((error: unknown) => {
          throw error instanceof FatalError ? new Error(error.message) : error;
        });
        // The session left behind ends (SessionEnd `other`); the chosen one starts as resumed.
        await runtime.endSession(current, 'other');
        current = next.session;
        await next.session.start('resume');
        if (!start.imported) notes.push(`Resumed session ${start.sessionId}.`);
        return { session: next.session, messages: next.resumed?.messages ?? [], notes };
      },
      // A fork shares the run's model client, tools and MCP servers; close() ends it too.
      forkSession: async (from) => runtime.forkSession(from, { onWarning: warn }),
      bridge,
      questions,
      terminals,
      commands: allCommands(runtime, context),
      // MCP prompts and resources for core's input pipeline (commands and skills are in `commands`).
      ...(runtime.mcp ? { inputSources: { mcp: runtime.mcp } } : {}),
      settings,
      version: context.version,
      cwd,
      env,
      themeName: themes.themeName,
      customThemes: themes.themes,
      keymap: keys.keymap,
      ...(statusRunner
        ? {
            statusLine: {
              runner: statusRunner,
              ...(statusSetting?.padding ? { padding: statusSetting.padding } : {}),
            },
          }
        : {}),
      highlighter: new HighlighterLoader(),
      inputHistory: historyStore,
      listFiles: () => fileIndex.entries(),
      initialPrompt: context.initialPrompt,
      // Read at each dialog: /permissions may change the folder's trust during the session.
      folderTrusted: () => isFolderTrusted({ cwd, env, args, settings: settings.merged }),
    },
    { stdout, stdin: context.stdin ?? process.stdin, stderr },
  );
  statusRunner?.dispose();
  // Auto-memory's proposal (a model call, so while the runtime still counts and exports it),
  // then SessionEnd (`exit`) for the sessions still open (those /clear and /resume left had
  // theirs), recordings, telemetry, background commands and MCP servers, in the runtime's order.
  await endInteractiveRun({
    runtime,
    session: current,
    // A replay (--fake-responses) has no model to ask.
    proposeMemories: !args.fakeResponses && autoMemoryOn(settings.merged, env, { interactive: true }),
    where: { kodoHome: kodoHome(env), projectRoot: cwd },
    stdout,
  });
  stdout.write(`\nSession ${sessionId} ended.\nTo continue it later: kodo --resume ${sessionId}\n`);
  return ExitCode.ok;
}

/**
 * The built-in commands, then `/commands`, `/skills` and what users bring (custom commands,
 * skills as commands). A brought command never takes a built-in's name.
 */
function allCommands(runtime: Runtime, context: InteractiveContext) {
  const commands = builtinCommands({ mcp: () => runtime.mcp });
  const reserved = new Set(commands.flatMap((command) => [command.name, ...(command.aliases ?? [])]));
  const handle = extensibilityHandle(runtime.extensibility?.loaded, context);
  commands.push(...extensionSlashCommands(handle, commands, reserved));
  return commands;
}

/**
 * Loads Ink and the App, with two globals hidden while the modules initialise:
 * - Ink decides once, when first imported, whether it runs "in CI" (then it prints only final
 *   output); an interactive session was asked for explicitly, so CI variables must not count.
 * - The layout engine (yoga, WebAssembly) decodes its inlined binary through `fetch` when there
 *   is one, which loads Node's HTTP stack (undici) at startup; without it, it decodes directly.
 */
async function loadUi(): Promise<typeof import('./mount')> {
  const hidden: Record<string, string | undefined> = {};
  for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) {
    hidden[name] = process.env[name];
    delete process.env[name];
  }
  const fetchDescriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (fetchDescriptor?.configurable) {
    Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
  }
  try {
    return await onDemand.uiMount();
  } finally {
    if (fetchDescriptor?.configurable) Object.defineProperty(globalThis, 'fetch', fetchDescriptor);
    for (const [name, value] of Object.entries(hidden)) {
      if (value !== undefined) process.env[name] = value;
    }
  }
}
