import { join } from 'node:path';
import { kodoHome, type LoadedSettings } from '@kodo/core/engine';
import { Box, Static, Text, useApp, useStdin, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { AppProps } from './app-props';
import type { CommandContext, SlashCommand } from './commands/types';
import { ConfirmDialog } from './components/confirm-dialog';
import { Footer } from './components/footer';
import { HistoryItemView } from './components/history-item-view';
import { InputPrompt } from './components/input-prompt';
import { LiveTurn } from './components/live-turn';
import { QuestionDialog } from './components/question-dialog';
import { QueuedPrompts } from './components/queued-prompts';
import { SelectList } from './components/select-list';
import { StatusLine } from './components/status-line';
import { callDescriber } from './describe-call';
import { type EditorLauncher, externalEditor } from './editor';
import { gitBranch } from './git-branch';
import { useAgent } from './hooks/use-agent';
import { useAppKeys } from './hooks/use-app-keys';
import { useApprovalMode } from './hooks/use-approval-mode';
import { useChoice } from './hooks/use-choice';
import { useConfirmation } from './hooks/use-confirmation';
import { HighlighterContext } from './hooks/use-highlighter';
import { KeymapContext } from './hooks/use-keymap';
import { useNotifications } from './hooks/use-notifications';
import { usePromptDispatch } from './hooks/use-prompt-dispatch';
import { useSandboxLabel } from './hooks/use-sandbox-label';
import { useStatusLine } from './hooks/use-status-line';
import { TerminalScreensContext, useScreens, useTerminalKeys } from './hooks/use-terminal-screens';
import { useTerminalSize } from './hooks/use-terminal-size';
import { ThemeContext } from './hooks/use-theme';
import { useYoloToggle } from './hooks/use-yolo-toggle';
import { ClipboardImageReader } from './input/clipboard-image';
import { Keymap } from './keys/keymap';
import { useAnswerWarmUp } from './markdown/warm-up';
import { notificationPolicy } from './notify';
import { osc52Sequence } from './osc52';
import { replayItems } from './replay';
import { CLEAR_SCREEN } from './terminal/frame-writer';
import { resolveTheme, THEME_NAMES } from './theme';
import type { HistoryItem, NewHistoryItem } from './types';

export type { AppProps, ResumedSession } from './app-props';

const EXIT_ARM_MS = 2000;

/** The interactive UI: static history, the live turn, the dialog or the input, and the footer. */
export function App(props: AppProps) {
  const { bridge, commands, env, cwd, tools } = props;
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { setRawMode } = useStdin();
  const { columns, rows } = useTerminalSize();
  const [session, setSession] = useState(props.session);
  const [themeName, setThemeName] = useState<string>(props.themeName);
  const { customThemes } = props;
  const keymap = useMemo(() => props.keymap ?? Keymap.defaults(), [props.keymap]);
  const clipboard = useMemo(
    () => props.clipboard ?? new ClipboardImageReader({ env, dir: join(kodoHome(env), 'clipboard') }),
    [props.clipboard, env],
  );
  const [vimMode, setVimMode] = useState(props.settings.merged.general?.vimMode === true);
  const theme = useMemo(() => resolveTheme(themeName, env, customThemes), [themeName, env, customThemes]);
  const sandboxLabel = useSandboxLabel(props.sandbox, env.SANDBOX || undefined);
  const nextId = useRef(1);
  const banner: HistoryItem = useMemo(
    () => ({ id: 0, kind: 'banner', version: props.version, cwd }),
    [props.version, cwd],
  );
  const describe = useMemo(() => callDescriber(tools), [tools]);
  const [history, setHistory] = useState<HistoryItem[]>(() => {
    const replayed = props.resumedMessages ? replayItems(props.resumedMessages, describe) : [];
    return [banner, ...replayed.map((item) => ({ ...item, id: nextId.current++ }) as HistoryItem)];
  });
  const [staticKey, setStaticKey] = useState(0);
  const [thoughtsExpanded, setThoughtsExpanded] = useState(false);
  const [hint, setHint] = useState<string | undefined>(undefined);
  const approvalMode = useApprovalMode(session);
  const [branch, setBranch] = useState(() => gitBranch(cwd));
  const exitArmedAt = useRef(0);
  const lastAnswer = useRef<string[]>([]);
  const pending = useConfirmation(bridge);
  const terminals = props.terminals;
  // While a command has the focus (Ctrl+F) the keys are its own; the prompt and shortcuts wait.
  const shellFocused = useScreens(terminals).focused !== undefined;
  useTerminalKeys(terminals, shellFocused);
  useEffect(() => terminals?.resizeAll(columns, rows), [terminals, columns, rows]);
  const { choice, choose } = useChoice();
  /** Set on the way out, so the last frame Ink leaves behind is the transcript alone. */
  const [leaving, setLeaving] = useState(false);
  const question = useSyncExternalStore(
    (listener) => props.questions?.subscribe(listener) ?? (() => undefined),
    () => props.questions?.current(),
  );

  const addItems = useCallback((items: NewHistoryItem[]) => {
    const withIds = items.map((item) => ({ ...item, id: nextId.current++ }) as HistoryItem);
    for (const item of items) {
      if (item.kind === 'model') lastAnswer.current.push(item.text);
    }
    setHistory((current) => [...current, ...withIds]);
  }, []);
  const addItem = useCallback((item: NewHistoryItem) => addItems([item]), [addItems]);
  const forgetLastAnswer = useCallback(() => {
    lastAnswer.current = [];
  }, []);
  /** Set once the dispatch exists: a step took a steering line. */
  const steeredLine = useRef<(text: string) => void>(() => {});
  const agent = useAgent({
    session,
    describe,
    onCommit: addItems,
    onSteered: (text) => steeredLine.current(text),
  });

  /** Redraws the whole transcript (after a resize, a theme change, expanding thoughts). */
  const { clearScreen } = props;
  const refreshStatic = useCallback(() => {
    if (clearScreen) clearScreen();
    else stdout.write(CLEAR_SCREEN);
    setStaticKey((key) => key + 1);
  }, [stdout, clearScreen]);

  const lastWidth = useRef(columns);
  useEffect(() => {
    if (lastWidth.current === columns) return;
    lastWidth.current = columns;
    const timer = setTimeout(refreshStatic, 100);
    return () => clearTimeout(timer);
  }, [columns, refreshStatic]);

  useEffect(() => {
    if (!agent.busy) setBranch(gitBranch(cwd));
  }, [agent.busy, cwd]);

  useAnswerWarmUp({ highlighter: props.highlighter, theme, width: columns, busy: agent.busy });

  const leave = useCallback(() => {
    agent.cancel();
    props.onExit(session.id);
    setLeaving(true);
  }, [agent, props, session]);
  useEffect(() => {
    // After the render without the input and spinner has been committed.
    if (leaving) exit();
  }, [leaving, exit]);

  useNotifications({
    policy: useMemo(() => notificationPolicy(props.settings.merged, env), [props.settings.merged, env]),
    busy: agent.busy,
    approval: pending ? { callId: pending.request.call.callId, name: pending.request.call.name } : undefined,
    write: (sequence) => stdout.write(sequence),
  });

  const openEditor = useMemo<EditorLauncher>(
    () =>
      props.openEditor ??
      externalEditor(env, {
        suspend: () => setRawMode(false),
        resume: () => {
          setRawMode(true);
          refreshStatic();
        },
      }),
    [props.openEditor, env, setRawMode, refreshStatic],
  );

  const newSession = useCallback(async () => {
    const fresh = await props.createSession();
    refreshStatic();
    setHistory([banner]);
    lastAnswer.current = [];
    setSession(fresh);
    props.onSession?.(fresh.id);
  }, [props, refreshStatic, banner]);

  const resumeSession = useCallback(
    async (identifier: string) => {
      if (!props.resumeSession) return undefined;
      const resumed = await props.resumeSession(identifier);
      refreshStatic();
      const replayed = replayItems(resumed.messages, describe);
      setHistory([banner, ...replayed.map((item) => ({ ...item, id: nextId.current++ }) as HistoryItem)]);
      lastAnswer.current = [];
      setSession(resumed.session);
      props.onSession?.(resumed.session.id);
      for (const note of resumed.notes) addItem({ kind: 'info', tone: 'info', text: note });
      return resumed.session.id;
    },
    [props, refreshStatic, banner, describe, addItem],
  );

  const forkSession = useCallback(async () => {
    if (!props.forkSession) return undefined;
    const forked = await props.forkSession(session);
    setSession(forked);
    props.onSession?.(forked.id);
    return forked.id;
  }, [props, session]);

  const runCommand = useCallback(
    (command: SlashCommand, args: string) => {
      const context: CommandContext = {
        args,
        session,
        tools,
        settings: props.settings,
        version: props.version,
        cwd,
        env,
        themeName,
        themeNames: [...THEME_NAMES, ...(customThemes?.keys() ?? [])],
        keymap,
        vimMode,
        setVimMode,
        addItem,
        setTheme: (name) => {
          setThemeName(name);
          refreshStatic();
        },
        newSession,
        forkSession,
        resumeSession,
        choose,
        lastAnswer: () => (lastAnswer.current.length > 0 ? lastAnswer.current.join('\n\n') : undefined),
        copyToClipboard: (text) => stdout.write(osc52Sequence(text, env)),
        sendPrompt: async (input, display) => {
          lastAnswer.current = [];
          addItem({ kind: 'user', text: display });
          await agent.send(input);
        },
        exit: leave,
      };
      return Promise.resolve(command.run(context)).catch((error: unknown) =>
        addItem({
          kind: 'info',
          tone: 'error',
          text: `/${command.name} failed: ${(error as Error).message}`,
        }),
      );
    },
    [
      session,
      tools,
      props.settings,
      props.version,
      cwd,
      env,
      themeName,
      customThemes,
      keymap,
      vimMode,
      addItem,
      refreshStatic,
      newSession,
      forkSession,
      resumeSession,
      choose,
      stdout,
      leave,
      agent,
    ],
  );

  const { submit, queue, inputHistory, steering, onSteered, dropSteering } = usePromptDispatch({
    session,
    agent,
    commands,
    inputHistory: props.inputHistory,
    listFiles: props.listFiles,
    ...(props.inputSources ? { sources: props.inputSources } : {}),
    addItem,
    runCommand,
    onPromptStart: forgetLastAnswer,
    paused: pending !== undefined,
  });
  steeredLine.current = onSteered;

  /** Ctrl+C: cancels a running request and the queued lines; twice within two seconds exits. */
  const interrupt = useCallback(() => {
    agent.cancel();
    const dropped = queue.clear() + dropSteering();
    if (dropped > 0) {
      addItem({
        kind: 'info',
        tone: 'warning',
        text: `Dropped ${dropped} queued ${dropped === 1 ? 'prompt' : 'prompts'}.`,
      });
    }
    const now = Date.now();
    if (now - exitArmedAt.current < EXIT_ARM_MS) {
      leave();
      return;
    }
    exitArmedAt.current = now;
    setHint('Press Ctrl+C again to exit.');
    setTimeout(() => setHint(undefined), EXIT_ARM_MS);
  }, [agent, queue, leave, addItem, dropSteering]);

  const initial = useRef(props.initialPrompt);
  useEffect(() => {
    const prompt = initial.current;
    initial.current = undefined;
    if (prompt?.trim()) submit(prompt, 'prompt');
  }, [submit]);

  const statusText = useStatusLine(props.statusLine?.runner, {
    session,
    cwd,
    version: props.version,
    approvalMode,
    sandbox: sandboxLabel,
    busy: agent.busy,
    lastUsage: agent.lastUsage,
    addItem,
  });

  const pasteImage = useCallback(async () => {
    const result = await clipboard.read();
    if ('path' in result) return result.path;
    addItem({ kind: 'info', tone: 'info', text: result.note });
    return undefined;
  }, [clipboard, addItem]);

  const showBriefly = useCallback((message: string) => {
    setHint(message);
    setTimeout(() => setHint(undefined), EXIT_ARM_MS);
  }, []);
  const toggleYolo = useYoloToggle({ session, onRefused: showBriefly });

  useAppKeys({
    session,
    firstSession: props.session,
    keymap,
    shellFocused,
    terminals,
    toggleYolo,
    toggleThoughts: () => {
      setThoughtsExpanded((expanded) => !expanded);
      refreshStatic();
    },
    redraw: refreshStatic,
  });

  const totals = session.statsTotals();
  const previewLines = Math.max(3, Math.floor(rows / 3));
  const asking = question && !pending ? question : undefined;
  const reserved = pending ? previewLines + 14 : asking ? 14 : 8;
  const liveRows = Math.max(3, rows - reserved);
  const maxToolLines = 12;
  const pendingName = pending
    ? describe(pending.request.call.name, pending.request.call.args).displayName
    : '';
  const below = leaving ? null : (
    <Box flexDirection="column" marginTop={1}>
      {pending ? (
        <ConfirmDialog
          key={pending.request.call.callId}
          pending={pending}
          displayName={pendingName}
          openEditor={openEditor}
          width={columns}
          maxPreviewLines={previewLines}
          onCancelRequest={interrupt}
          permanentApproval={permanentApproval(props.settings)}
          sessionApproval={props.folderTrusted?.() ?? true}
        />
      ) : null}
      {asking ? (
        <QuestionDialog key={asking.id} pending={asking} width={columns} onCancelRequest={interrupt} />
      ) : null}
      {agent.busy && !pending && !asking ? (
        <StatusLine
          startedAt={agent.startedAt}
          retry={agent.retry}
          waitingForApproval={false}
          waitingSince={agent.waitingSince}
          hint={hint}
        />
      ) : null}
      {!agent.busy && hint ? <Text color={theme.warning}> {hint}</Text> : null}
      {choice && !pending && !asking ? (
        <SelectList
          {...choice.request}
          width={columns}
          maxVisible={Math.max(3, rows - 10)}
          onSelect={(value) => choice.done(value)}
          onCancel={() => choice.done()}
        />
      ) : null}
      {pending || asking || choice ? null : (
        <QueuedPrompts items={queue.items} steering={steering} width={columns} />
      )}
      {pending || asking || choice ? null : (
        <InputPrompt
          commands={commands}
          listFiles={props.listFiles}
          history={inputHistory}
          width={columns}
          isActive={!pending && !asking && !shellFocused}
          busy={agent.busy}
          onSubmit={submit}
          onCancel={agent.cancel}
          onInterrupt={interrupt}
          onExit={leave}
          vimMode={vimMode}
          queuedCount={queue.items.length}
          onDropQueued={queue.dropLast}
          pasteImage={pasteImage}
        />
      )}
      {statusText !== '' ? (
        <Text wrap="truncate-end">
          {' '.repeat(props.statusLine?.padding ?? 0)}
          {statusText}
        </Text>
      ) : null}
      <Footer
        width={columns}
        info={{
          model: session.model,
          contextUsed: agent.lastUsage?.promptTokenCount
            ? (agent.lastUsage.promptTokenCount + (agent.lastUsage.candidatesTokenCount ?? 0)) /
              session.contextWindow(session.model)
            : undefined,
          inputTokens: totals.tokens.prompt,
          outputTokens: totals.tokens.candidates + totals.tokens.thoughts,
          cost: session.estimatedCost(),
          cwd,
          branch,
          approvalMode,
          sandbox: sandboxLabel,
        }}
      />
    </Box>
  );
  return (
    <ThemeContext.Provider value={theme}>
      <KeymapContext.Provider value={keymap}>
        <HighlighterContext.Provider value={props.highlighter}>
          <TerminalScreensContext.Provider value={terminals}>
            <Static key={staticKey} items={history}>
              {(item) => (
                <Box key={`${staticKey}:${item.id}`} width={columns}>
                  <HistoryItemView
                    item={item}
                    width={columns}
                    thoughtsExpanded={thoughtsExpanded}
                    maxToolLines={maxToolLines}
                  />
                </Box>
              )}
            </Static>
            {leaving ? null : (
              <LiveTurn
                blocks={agent.live}
                width={columns}
                maxRows={liveRows}
                thoughtsExpanded={thoughtsExpanded}
              />
            )}
            {below}
          </TerminalScreensContext.Provider>
        </HighlighterContext.Provider>
      </KeymapContext.Provider>
    </ThemeContext.Provider>
  );
}

/** Gemini CLI's switch for the saved approval choice; `disableAlwaysAllow` turns it off again. */
function permanentApproval(settings: LoadedSettings): boolean {
  const security = settings.merged.security;
  return security?.enablePermanentToolApproval === true && security.disableAlwaysAllow !== true;
}
