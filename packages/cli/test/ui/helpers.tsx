import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ApprovalMode,
  approvalLockdown,
  type ContentGenerator,
  type GenerateRequest,
  type GenerateResponse,
  type LoadedSettings,
  lazyBuiltinTools,
  type MessageRecord,
  Session,
  type Tool,
  ToolRegistry,
  Workspace,
} from '@kodo/core/engine';
import { render } from 'ink-testing-library';
import { App, type AppProps } from '../../src/ui/app';
import { builtinCommands } from '../../src/ui/commands/registry';
import type { SlashCommand } from '../../src/ui/commands/types';
import { ConfirmationBridge } from '../../src/ui/confirmation-bridge';
import type { EditorLauncher } from '../../src/ui/editor';
import type { SandboxView } from '../../src/ui/hooks/use-sandbox-label';
import type { Highlighter } from '../../src/ui/markdown/highlight';
import { HighlighterLoader } from '../../src/ui/markdown/highlighter-loader';
import { QuestionBridge } from '../../src/ui/question-bridge';
import { PtyTerminal } from '../../src/ui/terminal/pty-terminal';
import { TerminalScreens } from '../../src/ui/terminal/terminal-screens';

export const KEYS = {
  enter: '\r',
  altEnter: '\u001b\r',
  escape: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  left: '\u001b[D',
  tab: '\t',
  shiftTab: '\u001b[Z',
  backspace: '\u007f',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  ctrlR: '\u0012',
  ctrlT: '\u0014',
  ctrlF: '\u0006',
  ctrlY: '\u0019',
  focusIn: '\u001b[I',
  focusOut: '\u001b[O',
} as const;

export const text = (value: string): GenerateResponse => ({
  candidates: [{ content: { role: 'model', parts: [{ text: value }] }, index: 0 }],
});

export const finish = (promptTokens = 100, outputTokens = 10): GenerateResponse => ({
  candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: {
    promptTokenCount: promptTokens,
    candidatesTokenCount: outputTokens,
    totalTokenCount: promptTokens + outputTokens,
  },
});

export const call = (name: string, args: Record<string, unknown>): GenerateResponse => ({
  candidates: [{ content: { role: 'model', parts: [{ functionCall: { name, args } }] }, index: 0 }],
});

export interface ScriptedTurn {
  chunks: GenerateResponse[];
  /** Pause before each chunk. */
  delayMs?: number;
}

/** A model that answers each request with the next scripted turn and records the requests. */
export class ScriptedGenerator implements ContentGenerator {
  readonly provider = 'test';
  readonly requests: GenerateRequest[] = [];
  /** Requests outside the conversation (compression, a tool asking the model). */
  readonly oneShotRequests: GenerateRequest[] = [];

  constructor(
    private readonly turns: ScriptedTurn[],
    private readonly oneShots: GenerateResponse[] = [],
  ) {}

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    this.requests.push(structuredClone(request));
    const turn = this.turns.shift();
    if (!turn) throw new Error('No scripted turn left');
    for (const chunk of turn.chunks) {
      if (turn.delayMs) await sleep(turn.delayMs);
      if (signal.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      yield chunk;
    }
  }

  async generateContent(request: GenerateRequest): Promise<GenerateResponse> {
    this.oneShotRequests.push(structuredClone(request));
    const next = this.oneShots.shift();
    if (!next) throw new Error('not scripted');
    return next;
  }

  async countTokens(): Promise<{ totalTokens: number }> {
    return { totalTokens: 0 };
  }

  /** The text of the last request's user turn. */
  lastUserText(): string {
    const contents = this.requests.at(-1)?.contents ?? [];
    const user = [...contents].reverse().find((content) => content.role === 'user');
    return (user?.parts ?? [])
      .map((part) => part.text ?? JSON.stringify(part.functionResponse ?? ''))
      .join('\n');
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface AppHarnessOptions {
  turns?: ScriptedTurn[];
  /** Answers to one-shot requests (the compressor's), in order. */
  oneShots?: GenerateResponse[];
  /** The merged settings (default: just the model name). */
  settings?: LoadedSettings['merged'];
  /** The model of the first session (default gemini-2.5-pro). */
  model?: string;
  approvalMode?: ApprovalMode;
  initialPrompt?: string;
  openEditor?: EditorLauncher;
  inputHistory?: string[];
  highlighter?: Highlighter;
  files?: string[];
  env?: NodeJS.ProcessEnv;
  resumedMessages?: MessageRecord[];
  sandbox?: SandboxView;
  /** Shell commands in a real pseudo-terminal (as the interactive UI runs them). */
  pty?: boolean;
  /** The slash commands (default: the built-in ones). */
  commands?: SlashCommand[];
  /** Tools registered beside the built-in ones (activate_skill, …). */
  extraTools?: Tool[];
  /** Further App props (custom themes, a status line, key bindings…). */
  appProps?: Partial<AppProps>;
}

/** The App around a real Session (real tools, a temp workspace) and a scripted model. */
export function renderApp(options: AppHarnessOptions = {}) {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-ui-')));
  // Commands that save settings (/theme) write here, never to the real home.
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-ui-home-')));
  const generator = new ScriptedGenerator(options.turns ?? [], options.oneShots ?? []);
  const bridge = new ConfirmationBridge();
  const questions = new QuestionBridge();
  const tools = new ToolRegistry(lazyBuiltinTools());
  for (const tool of options.extraTools ?? []) tools.register(tool);
  const sessions: Session[] = [];
  const terminals = options.pty ? new TerminalScreens() : undefined;
  const terminal = terminals
    ? new PtyTerminal({ screens: terminals, size: () => ({ columns: 100, rows: 30 }) })
    : undefined;
  const makeSession = () => {
    const session = new Session({
      generator,
      model: options.model ?? 'gemini-2.5-pro',
      tools,
      toolContext: {
        workspace: new Workspace({ roots: [workspace] }),
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        shellInactivityTimeoutMs: 30_000,
        ...(terminal ? { pseudoTerminal: terminal } : {}),
        askUser: questions.handler,
      },
      approvalMode: options.approvalMode ?? 'default',
      // As createRuntime passes it (resolveConfig): the settings' lock-down.
      approvalLockdown: approvalLockdown(options.settings ?? {}),
      approvals: { interactive: true, confirm: bridge.handler },
      includeEnvironmentContext: false,
      retry: { initialDelayMs: 0, streamInitialDelayMs: 0 },
    });
    sessions.push(session);
    return session;
  };
  const history = [...(options.inputHistory ?? [])];
  const exits: string[] = [];
  const highlighter = new HighlighterLoader(
    async () => options.highlighter ?? { highlight: () => undefined },
  );
  const instance = render(
    <App
      session={makeSession()}
      tools={tools}
      createSession={async () => makeSession()}
      forkSession={async (from) => {
        const forked = from.fork({ sessionId: `fork-${sessions.length}` });
        sessions.push(forked);
        return forked;
      }}
      bridge={bridge}
      questions={questions}
      commands={options.commands ?? builtinCommands()}
      settings={{
        merged: { model: { name: 'gemini-2.5-pro' }, ...options.settings },
        sources: ['/home/me/.kodo/settings.json'],
      }}
      version="9.9.9"
      cwd={workspace}
      env={{ KODO_HOME: home, KODO_NOTIFICATIONS: '0', ...options.env }}
      themeName="dark"
      highlighter={highlighter}
      inputHistory={{
        load: () => [...history],
        add: (entry) => {
          history.push(entry);
          return [...history];
        },
      }}
      listFiles={async () => options.files ?? []}
      initialPrompt={options.initialPrompt}
      {...(options.resumedMessages ? { resumedMessages: options.resumedMessages } : {})}
      {...(options.sandbox ? { sandbox: options.sandbox } : {})}
      {...(terminals ? { terminals } : {})}
      {...(options.openEditor ? { openEditor: options.openEditor } : {})}
      onExit={(id) => exits.push(id)}
      {...options.appProps}
    />,
  );
  return {
    ...instance,
    workspace,
    home,
    generator,
    bridge,
    sessions,
    terminals,
    history,
    exits,
    /** Types keys one event at a time, letting the UI settle in between. */
    async press(...keys: string[]) {
      for (const key of keys) {
        instance.stdin.write(key);
        await sleep(key === KEYS.escape ? 60 : 15);
      }
    },
    async type(value: string) {
      instance.stdin.write(value);
      await sleep(15);
    },
    frame: () => instance.lastFrame() ?? '',
    cleanup() {
      instance.unmount();
      rmSync(workspace, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}
