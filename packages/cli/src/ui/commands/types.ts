import type { LoadedSettings, Part, Session, ToolRegistry } from '@kodo/core/engine';
import type { ChoiceRequest } from '../components/select-list';
import type { Keymap } from '../keys/keymap';
import type { NewHistoryItem } from '../types';

/** What a slash command may read and do; the App provides it. */
export interface CommandContext {
  /** Text after the command name, trimmed. */
  args: string;
  session: Session;
  tools: ToolRegistry;
  settings: LoadedSettings;
  version: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The theme in use: a built-in name or a custom theme's. */
  themeName: string;
  /** Every theme `/theme` offers: the built-in ones, then the custom ones. */
  themeNames: readonly string[];
  addItem(item: NewHistoryItem): void;
  setTheme(name: string): void;
  /** Clears the screen and starts a new session. */
  newSession(): Promise<void>;
  /** Continues in a fork of the session (its own record); the new id, or undefined if not possible. */
  forkSession(): Promise<string | undefined>;
  /**
   * Continues a recorded session instead (`latest`, a number of the session list or an id; another
   * tool's session is imported first); its id, or undefined where that is not possible. Throws
   * with a message for the person when the identifier names no session.
   */
  resumeSession?(identifier: string): Promise<string | undefined>;
  /** Shows a menu in place of the input; the chosen value, or undefined on Esc. */
  choose(request: ChoiceRequest): Promise<string | undefined>;
  /** The text of the latest model answer, if any. */
  lastAnswer(): string | undefined;
  copyToClipboard(text: string): void;
  /** The key bindings in force (`/help` shows what keybindings.json changed). */
  keymap?: Keymap;
  /** Whether the input has vim keybindings (`/vim`). */
  vimMode: boolean;
  setVimMode(enabled: boolean): void;
  /** Sends a prompt to the model as if typed; `display` is what the history shows. */
  sendPrompt(input: string | Part[], display: string): Promise<void>;
  exit(): void;
}

/**
 * A command the terminal runs. For a built-in session command, `name`, `aliases`, `description`
 * and `argumentHint` are core's (BUILTIN_COMMANDS, via `terminalBuiltin`); a custom command or
 * skill brings its own.
 */
export interface SlashCommand {
  name: string;
  aliases?: readonly string[];
  description: string;
  /** What may follow the name (`/help` shows it). */
  argumentHint?: string;
  /** Words that may follow the name, for completion in the terminal. */
  subcommands?: { name: string; description: string }[];
  /** May run while a turn is in progress (it only reads, or only changes the display). */
  whileBusy?: boolean;
  run(context: CommandContext): void | Promise<void>;
}

/** What the terminal adds to a built-in core declares: completion, when it may run, what it does. */
export type SlashCommandBehaviour = Omit<SlashCommand, 'name' | 'aliases' | 'description' | 'argumentHint'>;
