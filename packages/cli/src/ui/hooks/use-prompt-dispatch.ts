import {
  type InputSession,
  type InputSources,
  type Part,
  resolveInput,
  runShellLine,
} from '@kodo/core/engine';
import { useCallback, useRef, useState } from 'react';
import { broughtSources, isBroughtCommand } from '../commands/extension-commands';
import { parseSlashCommand } from '../commands/registry';
import type { SlashCommand } from '../commands/types';
import type { SubmitMode } from '../components/input-prompt';
import type { NewHistoryItem } from '../types';
import type { AgentState } from './use-agent';
import { type PromptQueue, type QueuedPrompt, usePromptQueue } from './use-prompt-queue';

/** What dispatching a line needs of the session (the UI's `Session` is one). */
export interface DispatchSession extends InputSession {
  /** Where a shell line's note goes (core's runShellLine adds it). */
  addContext(parts: Part[]): void;
  /** Steering: the line joins the running prompt at its next step boundary. */
  steer(text: string): void;
  /** The steering lines the prompt ended without taking. */
  takeSteering(): string[];
}

export interface PromptDispatchOptions {
  session: DispatchSession;
  agent: Pick<AgentState, 'busy' | 'send' | 'track'>;
  commands: readonly SlashCommand[];
  /** Earlier lines (oldest first) and how to remember a new one. */
  inputHistory: { load(): string[]; add(entry: string): string[] };
  listFiles(): Promise<string[]>;
  /**
   * MCP prompts and resources for core's input pipeline (custom commands and skills come from the
   * registry's entries for them, which are for completion and /help: the pipeline resolves and
   * expands them).
   */
  sources?: Omit<InputSources, 'listFiles'>;
  addItem(item: NewHistoryItem): void;
  /** Runs a slash command in the App's command context; resolves when it is over. */
  runCommand(command: SlashCommand, args: string): Promise<void>;
  /** A prompt goes to the model: the answer `/copy` takes starts anew. */
  onPromptStart(): void;
  /** Lines wait in the queue anyway (an approval dialog is open). */
  paused: boolean;
}

export interface PromptDispatch {
  /**
   * Takes a line the person submitted (or the initial prompt): remembered, then run, sent as
   * steering (a prompt typed while a prompt runs), or queued (`queue`: for after the turn).
   */
  submit(text: string, mode: SubmitMode, options?: { queue?: boolean }): boolean;
  /** The lines typed ahead, waiting for the running turn. */
  queue: PromptQueue;
  /** Steering lines sent and not yet taken by a step, oldest first. */
  steering: readonly string[];
  /** A step took this steering line (the session's `steering` event). */
  onSteered(text: string): void;
  /** Drops the steering lines no step took yet (Ctrl+C); how many. */
  dropSteering(): number;
  /** The remembered lines, oldest first, for the input's history. */
  inputHistory: string[];
}

/**
 * What a submitted line does, whether typed at an idle prompt or queued behind a running turn, is
 * core's input pipeline's answer (the same in every front end): a built-in command runs (an
 * unknown one says so); a shell line (`!command`, or typed in shell mode) runs through core's
 * runShellLine, as in every front end: the person's own tool call (a policy's deny, hooks and the
 * sandbox apply), its output joining the next prompt's context; a custom command, skill or MCP
 * prompt becomes its prompt; anything else is a prompt, its `@file` references attached and an
 * `@agent` mention routed to that agent. Lines are remembered in the input history as typed, and
 * wait in the type-ahead queue while something runs, except commands that may run alongside a turn.
 */
export function usePromptDispatch(options: PromptDispatchOptions): PromptDispatch {
  const { session, agent, commands, addItem, runCommand, onPromptStart, listFiles } = options;
  const [inputHistory, setInputHistory] = useState<string[]>(() => options.inputHistory.load());
  /** A prompt's turn runs: a line typed now steers it. */
  const promptRunning = useRef(false);
  const steeringLines = useRef<string[]>([]);
  const [steering, setSteering] = useState<readonly string[]>([]);
  const publishSteering = useCallback(() => setSteering([...steeringLines.current]), []);
  /** Set once the queue exists: lines the turn did not take become the next prompt. */
  const sendNext = useRef<(text: string) => void>(() => {});

  const { sources } = options;

  const runShell = useCallback(
    async (command: string) => {
      addItem({ kind: 'shell-input', command });
      // Its events draw the call live; a refused or cancelled command adds nothing to the context.
      await agent.track((signal, onEvent) =>
        runShellLine(session, command, { frontEnd: 'terminal', signal, onEvent }),
      );
    },
    [addItem, agent, session],
  );

  /** A line that is not the registry's own command: core's pipeline says what it is. */
  const runLine = useCallback(
    async (text: string) => {
      // The registry's own commands (built-ins, /commands, /skills) were dispatched already.
      const ownCommands = commands
        .filter((command) => !isBroughtCommand(command))
        .flatMap((command) => [command.name, ...(command.aliases ?? [])]);
      const resolved = await resolveInput(
        { text },
        {
          frontEnd: 'terminal',
          session,
          // The registry's custom commands and skills (reloads update it in place), then the MCP side.
          sources: { ...broughtSources(commands), ...sources, listFiles },
          signal: new AbortController().signal,
          extraCommands: ownCommands,
        },
      );
      if (resolved.kind === 'error') {
        addItem({
          kind: 'info',
          tone: 'error',
          text: resolved.unknownCommand
            ? `Unknown command: /${resolved.unknownCommand}. Type /help for the list.`
            : resolved.message,
        });
        return;
      }
      if (resolved.kind === 'shell') {
        await runShell(resolved.command);
        return;
      }
      if (resolved.kind !== 'prompt') return;
      onPromptStart();
      addItem({ kind: 'user', text: resolved.display });
      for (const skipped of resolved.skipped)
        addItem({ kind: 'info', tone: 'warning', text: `Not attached: ${skipped}` });
      if (resolved.attached.length > 0) {
        addItem({ kind: 'info', tone: 'info', text: `Attached ${resolved.attached.join(', ')}` });
      }
      if (resolved.agent)
        addItem({ kind: 'info', tone: 'info', text: `Asking the ${resolved.agent} agent.` });
      promptRunning.current = true;
      try {
        await agent.send(resolved.prompt);
      } finally {
        promptRunning.current = false;
        // The turn ended before another step: what steered it goes out next, ahead of the queue.
        const left = session.takeSteering();
        steeringLines.current = [];
        publishSteering();
        if (left.length > 0) sendNext.current(left.join('\n'));
      }
    },
    [addItem, agent, session, listFiles, onPromptStart, publishSteering, sources, commands, runShell],
  );

  const dispatch = useCallback(
    async ({ text, mode }: QueuedPrompt): Promise<void> => {
      const slash = mode === 'prompt' ? parseSlashCommand(text, commands) : undefined;
      if (slash && 'command' in slash && !isBroughtCommand(slash.command))
        await runCommand(slash.command, slash.args);
      else if (mode === 'shell') await runShell(text);
      // `!command` too is core's pipeline's to recognise.
      else await runLine(text);
    },
    [commands, runCommand, runShell, runLine],
  );

  const queue = usePromptQueue({ dispatch, busy: agent.busy, paused: options.paused });
  sendNext.current = (text) => queue.send({ text, mode: 'prompt' }, { first: true });

  const history = options.inputHistory;
  const submit = useCallback(
    (text: string, mode: SubmitMode, submitOptions: { queue?: boolean } = {}): boolean => {
      setInputHistory(history.add(mode === 'shell' ? `!${text}` : text));
      const slash = mode === 'prompt' ? parseSlashCommand(text, commands) : undefined;
      const runsWhileBusy = slash !== undefined && 'command' in slash && slash.command.whileBusy === true;
      const isPrompt = mode === 'prompt' && slash === undefined && !text.startsWith('!');
      if (isPrompt && promptRunning.current && !submitOptions.queue && !options.paused) {
        session.steer(text);
        steeringLines.current.push(text);
        publishSteering();
        return true;
      }
      queue.send({ text, mode }, { now: runsWhileBusy });
      return true;
    },
    [commands, history, queue, session, options.paused, publishSteering],
  );

  const onSteered = useCallback(
    (text: string) => {
      const index = steeringLines.current.indexOf(text);
      if (index >= 0) steeringLines.current.splice(index, 1);
      publishSteering();
    },
    [publishSteering],
  );

  const dropSteering = useCallback(() => {
    const dropped = session.takeSteering().length;
    steeringLines.current = [];
    publishSteering();
    return dropped;
  }, [session, publishSteering]);

  return { submit, queue, inputHistory, steering, onSteered, dropSteering };
}
