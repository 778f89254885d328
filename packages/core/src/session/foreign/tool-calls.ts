/**
 * Other tools' calls under kodo's names, where the tool is the same (reading, writing and editing a
 * file, a shell command, a search, a to-do list), with the arguments renamed; so a model that
 * continues the conversation sees calls to tools it has. Any other call keeps its name and
 * arguments: its result stays in the history as text, which is all the model needs to know what
 * happened. Nothing here runs a call.
 */

type Args = Record<string, unknown>;

export interface ToolCall {
  name: string;
  args: Args;
}

/** Copies the arguments that are present, under new names. */
function pick(args: Args, names: Record<string, string>): Args {
  const out: Args = {};
  for (const [from, to] of Object.entries(names)) {
    if (args[from] !== undefined) out[to] = args[from];
  }
  return out;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** `offset` (first line, 1-based) and `limit` (line count) as kodo's `start_line`/`end_line`. */
function lineRange(offset: unknown, limit: unknown): Args {
  const start = isNumber(offset) && offset > 0 ? offset : undefined;
  if (!isNumber(limit) || limit <= 0) return start ? { start_line: start } : {};
  const first = start ?? 1;
  return { ...(start ? { start_line: first } : {}), end_line: first + limit - 1 };
}

const TODO_STATUSES = new Set(['pending', 'in_progress', 'completed', 'cancelled', 'blocked']);

function todos(items: unknown, textKey: string): Args[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const entry = item as Args | null;
    const text = entry?.[textKey];
    if (typeof text !== 'string') return [];
    const status = String(entry?.status ?? 'pending');
    return [{ description: text, status: TODO_STATUSES.has(status) ? status : 'pending' }];
  });
}

/** Claude Code's tools (2.1: Read, Write, Edit, Bash, Grep, Glob, LS, WebFetch, WebSearch, TodoWrite). */
export function claudeToolCall(name: string, input: Args): ToolCall {
  switch (name) {
    case 'Read':
      return {
        name: 'read_file',
        args: { ...pick(input, { file_path: 'file_path' }), ...lineRange(input.offset, input.limit) },
      };
    case 'Write':
      return { name: 'write_file', args: pick(input, { file_path: 'file_path', content: 'content' }) };
    case 'Edit':
      return {
        name: 'replace',
        args: pick(input, {
          file_path: 'file_path',
          old_string: 'old_string',
          new_string: 'new_string',
          replace_all: 'allow_multiple',
        }),
      };
    case 'Bash':
      return {
        name: 'run_shell_command',
        args: pick(input, {
          command: 'command',
          description: 'description',
          run_in_background: 'is_background',
        }),
      };
    case 'Grep': {
      const args = pick(input, { pattern: 'pattern', path: 'dir_path', glob: 'include_pattern' });
      if (input['-i'] === true) args.case_sensitive = false;
      if (input.output_mode === 'files_with_matches') args.names_only = true;
      return {
        name: 'grep_search',
        args: { ...args, ...pick(input, { '-C': 'context', '-A': 'after', '-B': 'before' }) },
      };
    }
    case 'Glob':
      return { name: 'glob', args: pick(input, { pattern: 'pattern', path: 'dir_path' }) };
    case 'LS':
      return { name: 'list_directory', args: pick(input, { path: 'dir_path' }) };
    case 'WebFetch':
      return { name: 'web_fetch', args: { prompt: [input.prompt, input.url].filter(Boolean).join(' ') } };
    case 'WebSearch':
      return { name: 'web_search', args: pick(input, { query: 'query' }) };
    case 'TodoWrite':
      return { name: 'write_todos', args: { todos: todos(input.todos, 'content') } };
    default:
      return { name, args: input };
  }
}

/** A shell command given as argv: `bash -lc <script>` is the script, anything else is quoted. */
function commandLine(argv: unknown): string | undefined {
  if (typeof argv === 'string') return argv;
  if (!Array.isArray(argv) || !argv.every((word) => typeof word === 'string')) return undefined;
  const words = argv as string[];
  if (words.length === 3 && /(^|\/)(ba|z)?sh$/.test(words[0]!) && /^-l?c$/.test(words[1]!)) return words[2];
  return words
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

function shellCall(command: unknown, workdir: unknown): ToolCall | undefined {
  const line = commandLine(command);
  if (line === undefined) return undefined;
  return {
    name: 'run_shell_command',
    args: { command: line, ...(typeof workdir === 'string' ? { dir_path: workdir } : {}) },
  };
}

/**
 * Codex's tools (0.171: exec_command, shell, shell_command, update_plan). `apply_patch` needs no
 * change: kodo's has the same name, the same patch format and the patch as `input`.
 */
export function codexToolCall(name: string, args: Args): ToolCall {
  switch (name) {
    case 'exec_command':
      return shellCall(args.cmd, args.workdir) ?? { name, args };
    case 'shell':
    case 'shell_command':
    case 'local_shell':
      return shellCall(args.command, args.workdir ?? args.working_directory) ?? { name, args };
    case 'update_plan':
      return { name: 'write_todos', args: { todos: todos(args.plan, 'step') } };
    default:
      return { name, args };
  }
}

/** Gemini CLI's tools carry kodo's names; only names and arguments of older versions change. */
export function geminiToolCall(name: string, args: Args): ToolCall {
  if (name === 'search_file_content') {
    const { include, ...rest } = args;
    return {
      name: 'grep_search',
      args: { ...rest, ...(include !== undefined ? { include_pattern: include } : {}) },
    };
  }
  if (name === 'read_file' && args.absolute_path !== undefined && args.file_path === undefined) {
    const { absolute_path, offset, limit, ...rest } = args;
    // Older versions counted `offset` from 0.
    const first = isNumber(offset) ? offset + 1 : undefined;
    return { name, args: { ...rest, file_path: absolute_path, ...lineRange(first, limit) } };
  }
  return { name, args };
}
