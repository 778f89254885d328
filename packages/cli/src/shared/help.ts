/**
 * The `--help` texts: kodo's and each subcommand's. Kept in their own tiny module so `kodo --help`
 * and `kodo <command> --help` load nothing else.
 */
export const HELP_TEXT = `Usage: kodo [options] [query..]

kodo is an autonomous coding agent for the terminal: it answers, reads, searches,
edits and runs commands in your project, under the approval policy you choose.

Commands:
  kodo [query..]              Run a prompt (headless when piped or with -p)
  kodo demo                   Replay a scripted session offline in a scratch project
  kodo mcp add|remove|list|serve  Manage MCP servers; serve: kodo as an MCP server
  kodo extensions <command>   install, link, list, enable, disable, update,
                              uninstall extensions (Gemini CLI) and plugins
                              (Claude Code)
  kodo skills list|enable|disable   Agent skills and skills.disabled
  kodo agents list|acknowledge      The project's agent files (new or changed ones
                                    load only once acknowledged)
  kodo hooks list|enable|disable
                              List the hooks of the settings, or turn one off or on
                              (kodo hooks --help)
  kodo models [provider] [--json]
                              What kodo knows about models: windows, output limits,
                              prices, capabilities, and what settings override
  kodo doctor [--json]        What kodo found on this machine: the files of Gemini CLI,
                              Claude Code and Codex it honours, maps or ignores, and
                              whether the sandbox, shell parser, ripgrep and PTY work
  kodo completion bash|zsh|fish
                              A shell completion script

Options:
  -p, --prompt <text>         Run this prompt headless (non-interactive) and exit
  -i, --prompt-interactive <text>
                              Run this prompt in the interactive UI, then stay
  -m, --model <spec>          Model as provider:model, e.g. openai:gpt-5,
                              anthropic:claude-sonnet-4-5, ollama:qwen3-coder; a
                              provider alone uses its default model, a bare id
                              its provider (gpt-/o3 → openai, claude- → anthropic,
                              else gemini). Default: $KODO_MODEL, $GEMINI_MODEL,
                              model.name in settings, or gemini-2.5-pro.
                              Providers: gemini, openai, anthropic, ollama,
                              openrouter, and settings "providers" profiles
      --effort <level>        How hard the model thinks: off | low | medium |
                              high | max (default: what the vendor's own agent
                              uses; model.effort in settings; /effort in the UI)
  -y, --yolo                  Approve every tool call (same as --approval-mode=yolo)
      --approval-mode <mode>  default | auto_edit | yolo | plan (read-only; plans
                              may be saved as Markdown)
      --policy <path>         Policy file or directory (TOML) to use instead of
                              ~/.kodo/policies and ~/.gemini/policies; repeatable
      --admin-policy <path>   Admin-tier policy file or directory; repeatable
  -o, --output-format <fmt>   text | json | stream-json (default: text)
      --json-schema <file>    With -o json/stream-json: the final answer as JSON
                              matching this JSON Schema (structured_output)
      --input-format <fmt>    text | stream-json: user messages as JSON lines on
                              stdin, answered in turn until EOF (docs/events.md)
      --acp                   Run as an Agent Client Protocol agent on stdio, for
                              editors such as Zed and JetBrains (docs/editors.md)
      --allowed-mcp-server-names <names>
                              Connect only these MCP servers; repeatable
  -d, --debug                 Log every model request and response to a file
  -r, --resume [session]      Continue a recorded session: latest (the default),
                              its number in --list-sessions, or its id; one of
                              Gemini CLI, Claude Code or Codex is imported first
      --list-sessions         List this project's recorded sessions (kodo's and
                              those the other tools saved) and exit
      --delete-session <s>    Delete a recorded session (number or id) and exit
      --session-id <id>       Start a new session with this id (A-Z a-z 0-9 _ -)
  -w, --worktree [name]       Work in a new git worktree and branch of the project
                              (.kodo/worktrees/<name>, worktree-<name>); removed
                              at exit when unchanged, else kept (docs/habits.md)
  -s, --sandbox               Run shell commands in the sandbox (bubblewrap on
                              Linux, sandbox-exec on macOS) or fail; on Linux it
                              is on by default when bwrap works (tools.sandbox)
      --allowed-tools <tools> Tools that run without asking, as tools.allowed in
                              settings: read_file, run_shell_command(git status);
                              repeatable or a comma list
      --include-directories <dirs>
                              More workspace roots the file tools may use and the
                              sandbox binds writable; repeatable or a comma list
      --skip-trust            Treat the current folder as trusted for this run
  -e, --extensions <names>    Use only these extensions (comma list; none = no
                              extensions)
  -l, --list-extensions       List the installed extensions and exit
      --max-budget-usd <n>    Stop once the session has cost this many US dollars
                              (priced with kodo's model catalogue; kodo models;
                              a model without a price is refused, exit 46)
      --max-tokens <n>        Stop once the session has used this many tokens
      --max-tool-calls <n>    Run at most this many tool calls
      --max-time <duration>   Stop after this long (seconds, or 90s, 15m, 2h)
                              since the first prompt. Budgets are checked
                              between steps; settings: budgets.maxBudgetUsd,
                              maxTokens, maxToolCalls, maxTime
      --fake-responses <file> Replay model answers from a recording (JSONL, one
                              model call a line; Gemini CLI's format) instead of
                              calling a model; --fake-responses-non-strict <file>
                              lets requests differ from the recorded ones
      --record-responses <file>
                              Record every model answer to this file, for
                              --fake-responses
  -v, --version               Print the version and exit
  -h, --help                  Print this help and exit

Headless input: stdin is read when it is not a terminal; with -p as well, the
prompt is appended after the piped text.

Sessions are recorded as they happen in ~/.kodo/sessions/<project>/.

Environment:
  GEMINI_API_KEY / GOOGLE_API_KEY   Gemini API key
  GOOGLE_GEMINI_BASE_URL            Send Gemini requests to another base URL
  OPENAI_API_KEY                    OpenAI API key
  OPENAI_BASE_URL                   Any OpenAI-compatible server (vLLM, llama.cpp,
                                    LM Studio…); the key is then optional
  ANTHROPIC_API_KEY                 Anthropic API key
  ANTHROPIC_BASE_URL                Send Anthropic requests to another base URL
  OPENROUTER_API_KEY                OpenRouter API key (-m openrouter:<model>)
  OLLAMA_BASE_URL                   Ollama server (default http://localhost:11434/v1)
  KODO_HOME                         Where kodo keeps its files (default ~/.kodo)
  KODO_SANDBOX                      true | false | bwrap | sandbox-exec (wins over
                                    -s and tools.sandbox)
  KODO_TRUST_WORKSPACE              true | false: trust the folder, or not, without
                                    asking

Exit codes: 0 ok, 1 error, 41 auth, 42 input, 44 sandbox, 45 budget reached,
46 dollar budget for an unpriced model, 47 answer not matching --json-schema,
52 config, 53 turn limit, 55 untrusted folder (headless), 130 cancelled.
`;

export const MODELS_HELP = `Usage: kodo models [provider] [--json]

Lists the models kodo knows: its catalogue (from models.dev, with the date of the data) and the
models of the settings' provider profiles, each with its context window, output limit, prices
(US$ per million tokens: input, output, cache read, cache write) and capabilities (reasoning,
images, tools, OpenAI's Responses API). Fields set by providers.<name>.modelOverrides in
settings win over the catalogue's and are marked.

Options:
  [provider]    Only this provider's models (gemini, openai, anthropic, or a profile)
  --json        One JSON document instead of the table
`;

export const HOOKS_HELP = `Usage: kodo hooks <command>

Commands:
  kodo hooks list              List the hooks of the user and project settings
  kodo hooks enable <name>     Run a disabled hook again (name or command)
  kodo hooks disable <name>    Stop running a hook (adds it to hooksConfig.disabled)
`;

const MCP_ADD_OPTIONS = `Options of add:
  -s, --scope <user|project>    Settings file to edit (default: project)
  -t, --transport <kind>        stdio (default), http or sse (http and sse take a URL)
  -e, --env <KEY=value>         Environment variable for a stdio server; repeatable
  -H, --header <"Name: value">  HTTP header for a remote server; repeatable
      --timeout <ms>            Connection and request timeout
      --trust                   Run the server's tools without asking
      --description <text>      A note shown by kodo mcp list
      --include-tools <a,b>     Offer only these tools
      --exclude-tools <a,b>     Never offer these tools
Words after <command> are the server's arguments, passed as they are.
`;

export const MCP_HELP = `Usage: kodo mcp <command>

Commands:
  kodo mcp list                             Connect to each configured server and show its
                                            state, tools, prompts and resources
  kodo mcp add [options] <name> <command|url> [args...]
                                            Add a server (replacing one of the same name)
  kodo mcp remove [-s user|project] <name>  Remove a server
  kodo mcp auth [--sign-out] <name>         Sign in to a remote server with OAuth (browser)
  kodo mcp serve [--tools builtin] [kodo flags]
                                            Be a stdio MCP server with the tools kodo (run a
                                            task) and kodo-reply (continue it); --tools builtin
                                            adds read_file, list_directory, glob, grep_search,
                                            replace, write_file and run_shell_command, under
                                            the policy (--policy, --approval-mode) as in kodo -p

${MCP_ADD_OPTIONS}`;

export const MCP_ADD_HELP = `Usage: kodo mcp add [options] <name> <command|url> [args...]

Adds an MCP server to the settings, replacing one of the same name.

${MCP_ADD_OPTIONS}`;

export const MCP_REMOVE_HELP = `Usage: kodo mcp remove [options] <name>

Removes an MCP server from the settings.

Options:
  -s, --scope <user|project>    Settings file to edit (default: project)
`;

export const MCP_AUTH_HELP = `Usage: kodo mcp auth [--sign-out] <name>

Signs in to the remote (http or sse) MCP server <name> with OAuth: prints the authorization
URL, opens it in the browser ($BROWSER, or the system's), and waits for the browser to come
back to a listener on 127.0.0.1. The tokens are kept in ~/.kodo/mcp-oauth/<name>.json (mode
0600) and refreshed by every session that uses the server.

Options:
  --sign-out    Forget the stored sign-in of <name>
`;

export const MCP_LIST_HELP = `Usage: kodo mcp list

Connects to each MCP server a session in this folder has (the settings' and those of the
enabled extensions) and shows its state, tools, prompts and resources.
`;

export const DEMO_HELP = `Usage: kodo demo

Copies a small sample project with a failing test into a scratch folder and replays a
scripted session on it: the model's answers are recorded, every tool call runs for real.
Needs no API key and no network.
`;

const COMMAND_HELP: Readonly<Record<string, string>> = {
  hooks: HOOKS_HELP,
  models: MODELS_HELP,
  mcp: MCP_HELP,
  'mcp add': MCP_ADD_HELP,
  'mcp remove': MCP_REMOVE_HELP,
  'mcp list': MCP_LIST_HELP,
  'mcp auth': MCP_AUTH_HELP,
  demo: DEMO_HELP,
};

/**
 * The usage of the subcommand `argv` asks help for (`kodo mcp add --help`, `kodo hooks -h`), or
 * undefined when it asks for none. Only `--help`/`-h` before any `--` counts; words after the
 * subcommand's own name (`kodo hooks disable --help`) fall back to the subcommand's usage.
 */
export function commandHelp(argv: readonly string[]): string | undefined {
  const [command, action] = argv;
  if (command === undefined || COMMAND_HELP[command] === undefined) return undefined;
  const end = argv.indexOf('--');
  let words = end >= 0 ? argv.slice(0, end) : argv;
  // `kodo mcp add <name> <command> --help`: words after the server's command are its own.
  if (command === 'mcp' && action === 'add') words = beforeServerCommand(words.slice(2));
  if (!words.some((word) => word === '--help' || word === '-h')) return undefined;
  return COMMAND_HELP[`${command} ${action}`] ?? COMMAND_HELP[command];
}

const MCP_ADD_VALUE_FLAGS = new Set([
  '-s',
  '--scope',
  '-t',
  '--transport',
  '-e',
  '--env',
  '-H',
  '--header',
  '--timeout',
  '--description',
  '--include-tools',
  '--exclude-tools',
]);

function beforeServerCommand(words: readonly string[]): readonly string[] {
  let positionals = 0;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (!word.startsWith('-')) {
      positionals += 1;
      if (positionals === 2) return words.slice(0, index);
    } else if (MCP_ADD_VALUE_FLAGS.has(word)) {
      index += 1;
    }
  }
  return words;
}
