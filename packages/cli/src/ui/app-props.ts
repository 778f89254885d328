import type { LoadedSettings, MessageRecord, Session, ToolRegistry } from '@kodo/core/engine';
import type { SlashCommand } from './commands/types';
import type { ConfirmationBridge } from './confirmation-bridge';
import type { EditorLauncher } from './editor';
import type { PromptDispatchOptions } from './hooks/use-prompt-dispatch';
import type { SandboxView } from './hooks/use-sandbox-label';
import type { ClipboardImage } from './input/clipboard-image';
import type { Keymap } from './keys/keymap';
import type { HighlighterLoader } from './markdown/highlighter-loader';
import type { QuestionBridge } from './question-bridge';
import type { StatusLineRunner } from './status/status-command';
import type { TerminalScreens } from './terminal/terminal-screens';
import type { Theme } from './theme';

// What the interactive App is given by ui/start.ts (and the tests): the session and how to make
// new ones, the bridges to the dialogs, settings and the terminal's services.

export interface ResumedSession {
  session: Session;
  /** Its recorded messages, drawn as the history. */
  messages: readonly MessageRecord[];
  notes: string[];
}

export interface AppProps {
  session: Session;
  tools: ToolRegistry;
  /** A fresh session for /clear (same settings, new id). */
  createSession(): Promise<Session>;
  /** A fork of the session for /fork, under a new id and its own record. */
  forkSession?(from: Session): Promise<Session>;
  /**
   * A recorded session to continue in place of this one (`/resume`): kodo's own, or another
   * tool's imported as a new kodo session. `notes` are said once it is shown.
   */
  resumeSession?(identifier: string): Promise<ResumedSession>;
  bridge: ConfirmationBridge;
  /** `ask_user`'s questions, answered in the question dialog. */
  questions?: QuestionBridge;
  commands: readonly SlashCommand[];
  /** Custom commands, skills and MCP prompts for core's input pipeline (see usePromptDispatch). */
  inputSources?: PromptDispatchOptions['sources'];
  settings: LoadedSettings;
  version: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A built-in theme's name or a custom theme's (`customThemes`). */
  themeName: string;
  /** The command-backed status line (settings `statusLine`), shown above the footer. */
  statusLine?: { runner: StatusLineRunner; padding?: number };
  /** Reads an image from the system clipboard (Ctrl+V); default: the system's clipboard tool. */
  clipboard?: { read(signal?: AbortSignal): Promise<ClipboardImage> };
  /** The key bindings (`~/.kodo/keybindings.json` over kodo's own); default: kodo's own. */
  keymap?: Keymap;
  /** Gemini CLI custom themes from the settings and theme files (themes/custom-themes.ts). */
  customThemes?: ReadonlyMap<string, Theme>;
  highlighter: HighlighterLoader;
  /** Earlier prompts (oldest first) and how to remember a new one. */
  inputHistory: { load(): string[]; add(entry: string): string[] };
  listFiles(): Promise<string[]>;
  initialPrompt?: string | undefined;
  /** The recorded messages of a resumed session, drawn as history before anything else. */
  resumedMessages?: readonly MessageRecord[];
  /** The shell sandbox in force, for the footer; absent when commands run unconfined. */
  sandbox?: SandboxView | undefined;
  /** The screens of shell commands running in a pseudo-terminal; absent when they use pipes. */
  terminals?: TerminalScreens;
  /** Replaces $EDITOR (tests). */
  openEditor?: EditorLauncher;
  /**
   * Whether the folder is trusted: only then does the approval dialog offer "for this session"
   * (as Gemini CLI). Default true.
   */
  folderTrusted?: () => boolean;
  /** Told the id of each new session (/clear starts one). */
  onSession?(sessionId: string): void;
  /** Told the session id when the person leaves. */
  onExit(sessionId: string): void;
  /**
   * Clears the screen and its scrollback and tells the frame writer that nothing of the UI is
   * on screen any more (mountApp passes it); without it the sequence is written directly.
   */
  clearScreen?(): void;
}
