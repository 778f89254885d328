import { acceptsImages, type Part, routeAgentMention, type Workspace } from '@kodo/core/engine';
import { useCallback, useState } from 'react';
import { parseSlashCommand } from '../commands/registry';
import type { SlashCommand } from '../commands/types';
import type { SubmitMode } from '../components/input-prompt';
import { expandAtReferences } from '../input/at-references';
import { shellCommandNote } from '../shell-note';
import type { NewHistoryItem } from '../types';
import type { AgentState } from './use-agent';
import { type PromptQueue, type QueuedPrompt, usePromptQueue } from './use-prompt-queue';

/** What dispatching a line needs of the session (the UI's `Session` is one). */
export interface DispatchSession {
  readonly model: string;
  readonly toolContext: { readonly workspace: Workspace };
  readonly agents: { list(): readonly { name: string }[] };
  addContext(parts: Part[]): void;
}

export interface PromptDispatchOptions {
  session: DispatchSession;
  agent: Pick<AgentState, 'busy' | 'send' | 'runTool'>;
  commands: readonly SlashCommand[];
  /** Earlier lines (oldest first) and how to remember a new one. */
  inputHistory: { load(): string[]; add(entry: string): string[] };
  listFiles(): Promise<string[]>;
  addItem(item: NewHistoryItem): void;
  /** Runs a slash command in the App's command context; resolves when it is over. */
  runCommand(command: SlashCommand, args: string): Promise<void>;
  /** A prompt goes to the model: the answer `/copy` takes starts anew. */
  onPromptStart(): void;
  /** Lines wait in the queue anyway (an approval dialog is open). */
  paused: boolean;
}

export interface PromptDispatch {
  /** Takes a line the person submitted (or the initial prompt): remembered, then run or queued. */
  submit(text: string, mode: SubmitMode): boolean;
  /** The lines typed ahead, waiting for the running turn. */
  queue: PromptQueue;
  /** The remembered lines, oldest first, for the input's history. */
  inputHistory: string[];
}

/**
 * What a submitted line does, whether typed at an idle prompt or queued behind a running turn: a
 * slash command runs (an unknown one says so); a shell line (`!command`, or typed in shell mode)
 * runs as the person's own tool call and its output joins the next prompt's context; anything
 * else is a prompt, its `@file` references attached and an `@agent` mention routed to that
 * agent. Lines are remembered in the input history as typed, and wait in the type-ahead queue
 * while something runs, except commands that may run alongside a turn.
 */
export function usePromptDispatch(options: PromptDispatchOptions): PromptDispatch {
  const { session, agent, commands, addItem, runCommand, onPromptStart, listFiles } = options;
  const [inputHistory, setInputHistory] = useState<string[]>(() => options.inputHistory.load());

  const runPrompt = useCallback(
    async (text: string) => {
      onPromptStart();
      addItem({ kind: 'user', text });
      const expanded = await expandAtReferences(text, {
        workspace: session.toolContext.workspace,
        listFiles,
        images: { model: session.model, accepted: acceptsImages(session.model) },
      });
      for (const skipped of expanded.skipped)
        addItem({ kind: 'info', tone: 'warning', text: `Not attached: ${skipped}` });
      if (expanded.attached.length > 0) {
        addItem({ kind: 'info', tone: 'info', text: `Attached ${expanded.attached.join(', ')}` });
      }
      const routed = routeAgentMention(
        expanded.text,
        session.agents.list().map((entry) => entry.name),
      );
      if (routed.agent) addItem({ kind: 'info', tone: 'info', text: `Asking the ${routed.agent} agent.` });
      await agent.send(
        expanded.images.length > 0 ? [{ text: routed.prompt }, ...expanded.images] : routed.prompt,
      );
    },
    [addItem, agent, session, listFiles, onPromptStart],
  );

  const runShell = useCallback(
    async (command: string) => {
      addItem({ kind: 'shell-input', command });
      const result = await agent.runTool('run_shell_command', { command });
      if (result && result.status !== 'cancelled') {
        session.addContext([{ text: shellCommandNote(command, result.output) }]);
      }
    },
    [addItem, agent, session],
  );

  const dispatch = useCallback(
    async ({ text, mode }: QueuedPrompt): Promise<void> => {
      const slash = mode === 'prompt' ? parseSlashCommand(text, commands) : undefined;
      if (slash && 'unknown' in slash) {
        addItem({
          kind: 'info',
          tone: 'error',
          text: `Unknown command: /${slash.unknown}. Type /help for the list.`,
        });
        return;
      }
      if (slash) await runCommand(slash.command, slash.args);
      else if (mode === 'shell') await runShell(text);
      else if (text.startsWith('!') && text.length > 1) await runShell(text.slice(1));
      else await runPrompt(text);
    },
    [commands, addItem, runCommand, runShell, runPrompt],
  );

  const queue = usePromptQueue({ dispatch, busy: agent.busy, paused: options.paused });

  const history = options.inputHistory;
  const submit = useCallback(
    (text: string, mode: SubmitMode): boolean => {
      setInputHistory(history.add(mode === 'shell' ? `!${text}` : text));
      const slash = mode === 'prompt' ? parseSlashCommand(text, commands) : undefined;
      const runsWhileBusy = slash !== undefined && 'command' in slash && slash.command.whileBusy === true;
      queue.send({ text, mode }, { now: runsWhileBusy });
      return true;
    },
    [commands, history, queue],
  );

  return { submit, queue, inputHistory };
}
