import { parseArgs } from 'node:util';
import {
  type ApprovalMode,
  type BudgetLimits,
  EFFORTS,
  type Effort,
  isEffort,
  parseDuration,
  splitOutsideParens,
} from '@kodo/core/engine';

export type OutputFormat = 'text' | 'json' | 'stream-json';
export type InputFormat = 'text' | 'stream-json';

export interface CliArgs {
  prompt: string | undefined;
  query: string | undefined;
  promptInteractive: string | undefined;
  model: string | undefined;
  approvalMode: ApprovalMode | undefined;
  outputFormat: OutputFormat | undefined;
  debug: boolean;
  fakeResponses: string | undefined;
  fakeResponsesStrict: boolean;
  recordResponses: string | undefined;
  /** `--policy` (repeatable, comma lists): policy files or dirs replacing the user policy dirs. */
  policyPaths?: string[];
  /** `--admin-policy` (repeatable, comma lists): admin-tier policy files or dirs. */
  adminPolicyPaths?: string[];
  version: boolean;
  help: boolean;
  /** `kodo demo` and later subcommands. */
  command: string | undefined;
  /** The words after a subcommand, as given (`kodo hooks disable "my hook"`). */
  commandArgs?: string[];
  /** `-r/--resume [latest|N|id]`; a bare flag means `latest`. */
  resume?: string;
  /** `-w/--worktree [name]`: run in a new git worktree; `''` (a bare flag) = a generated name. */
  worktree?: string;
  /** `--list-sessions`: print this project's sessions and exit. */
  listSessions?: boolean;
  /** `--delete-session N|id`. */
  deleteSession?: string;
  /** `--session-id <id>`: start a new session with this id. */
  sessionId?: string;
  /** `-s/--sandbox`: run shell commands in the sandbox (an error if it cannot start). */
  sandbox?: boolean;
  /** `--skip-trust`: treat the folder as trusted for this run. */
  skipTrust?: boolean;
  /** `--max-budget-usd`, `--max-tokens`, `--max-tool-calls`, `--max-time` (each wins over settings). */
  budgets?: BudgetLimits;
  /** `-e/--extensions a,b` (repeatable): only these extensions; `none` turns all off. */
  extensions?: string[];
  /** `-l/--list-extensions`: print the installed extensions and exit. */
  listExtensions?: boolean;
  /** `--acp`: speak the Agent Client Protocol on stdio (an editor drives kodo). */
  acp?: boolean;
  /** `--input-format stream-json`: user messages as JSON lines on stdin, answered in turn. */
  inputFormat?: InputFormat;
  /** `--allowed-mcp-server-names` (repeatable, comma lists): connect only these MCP servers. */
  allowedMcpServerNames?: string[];
  /** `--include-directories` (repeatable, comma lists): extra workspace roots, as given. */
  includeDirectories?: string[];
  /** `--allowed-tools` (repeatable, comma lists): tools that run without asking, as `tools.allowed`. */
  allowedTools?: string[];
  /** `--help` after a subcommand (`kodo hooks --help`): that subcommand's usage. */
  commandHelp?: boolean;
  /** `--effort off|low|medium|high|max`: how hard the model thinks; wins over every setting. */
  effort?: Effort;
  /** `--json-schema FILE`: the final answer as JSON matching this schema (headless json outputs). */
  jsonSchema?: string;
}

/** A usage error: one line and a pointer to `kodo --help`, exit code 1 unless it says another. */
export class ArgsError extends Error {
  override readonly name = 'ArgsError';
  constructor(
    message: string,
    readonly exitCode?: number,
  ) {
    super(message);
  }
}

/** Exit code of a flag value kodo does not know (`ExitCode.input`). */
const BAD_INPUT_EXIT = 42;

const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];
const INPUT_FORMATS: readonly InputFormat[] = ['text', 'stream-json'];
const CLI_APPROVAL_MODES: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo', 'plan'];
const SUBCOMMANDS = new Set(['demo', 'hooks']);

const OPTIONS = {
  prompt: { type: 'string', short: 'p' },
  'prompt-interactive': { type: 'string', short: 'i' },
  model: { type: 'string', short: 'm' },
  effort: { type: 'string' },
  yolo: { type: 'boolean', short: 'y' },
  'approval-mode': { type: 'string' },
  'output-format': { type: 'string', short: 'o' },
  'json-schema': { type: 'string' },
  debug: { type: 'boolean', short: 'd' },
  'fake-responses': { type: 'string' },
  'fake-responses-non-strict': { type: 'string' },
  'record-responses': { type: 'string' },
  policy: { type: 'string', multiple: true },
  'admin-policy': { type: 'string', multiple: true },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
  resume: { type: 'string', short: 'r' },
  worktree: { type: 'string', short: 'w' },
  'list-sessions': { type: 'boolean' },
  'delete-session': { type: 'string' },
  'session-id': { type: 'string' },
  sandbox: { type: 'boolean', short: 's' },
  'skip-trust': { type: 'boolean' },
  'max-budget-usd': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-tool-calls': { type: 'string' },
  'max-time': { type: 'string' },
  extensions: { type: 'string', short: 'e', multiple: true },
  'list-extensions': { type: 'boolean', short: 'l' },
  acp: { type: 'boolean' },
  'input-format': { type: 'string' },
  'allowed-mcp-server-names': { type: 'string', multiple: true },
  'include-directories': { type: 'string', multiple: true },
  'allowed-tools': { type: 'string', multiple: true },
} as const;

/** Every flag of the main command, long and short (for shell completion). */
export function mainFlags(): { long: string; short?: string; takesValue: boolean }[] {
  return Object.entries(OPTIONS).map(([name, option]) => ({
    long: `--${name}`,
    ...('short' in option ? { short: `-${option.short}` } : {}),
    takesValue: option.type === 'string',
  }));
}

/** Gemini CLI flags kodo does not have: named plainly rather than "unknown option". */
const UNSUPPORTED_FLAGS: Readonly<Record<string, string>> = {
  '--screen-reader': '--screen-reader',
  '--session-file': '--session-file',
  '--raw-output': '--raw-output',
  '--accept-raw-output-risk': '--accept-raw-output-risk',
};

function refuseUnsupported(argv: string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    const name = arg.split('=')[0]!;
    const label = UNSUPPORTED_FLAGS[name];
    if (label) throw new ArgsError(`${label} is a Gemini CLI flag that kodo does not support yet`);
  }
}

/** node's parser explains how to pass a positional that starts with '-'; one sentence is enough. */
function parserMessage(error: Error): string {
  const message = error.message.replace(/^TypeError \[[A-Z_]+\]: /, '');
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `Unknown option '${unknown[1]}'`;
  return message.split('. ')[0]!.replace(/\.$/, '');
}

/**
 * Subcommands with flags of their own (`kodo mcp add -e K=V name cmd -y …`): the words after
 * the name go to the subcommand untouched, never through the main command's parser.
 */
const RAW_SUBCOMMANDS = new Set([
  'mcp',
  'extensions',
  'extension',
  'skills',
  'skill',
  'agents',
  'agent',
  'models',
  'doctor',
  'completion',
]);

/**
 * `--resume` and `--worktree` take an optional value, which node's parser cannot express: a bare
 * `--resume`/`-r` (last, or followed by another flag) becomes `--resume=latest`, a bare
 * `--worktree`/`-w` becomes `--worktree=` (a generated name).
 */
function withResumeDefault(argv: string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--') {
      out.push(...argv.slice(index));
      break;
    }
    const next = argv[index + 1];
    const bare = next === undefined || (next.startsWith('-') && next !== '-');
    if ((arg === '--resume' || arg === '-r') && bare) out.push('--resume=latest');
    else if ((arg === '--worktree' || arg === '-w') && bare) out.push('--worktree=');
    // Gemini CLI's older name for --acp, still used by editors' agent settings.
    else if (arg === '--experimental-acp') out.push('--acp');
    else out.push(arg);
  }
  return out;
}

/** Parses argv (without node and script). Accepts both `--flag value` and `--flag=value`. */
export function parseCliArgs(argv: string[]): CliArgs {
  if (argv[0] !== undefined && RAW_SUBCOMMANDS.has(argv[0])) {
    return {
      prompt: undefined,
      query: undefined,
      promptInteractive: undefined,
      model: undefined,
      approvalMode: undefined,
      outputFormat: undefined,
      debug: false,
      fakeResponses: undefined,
      fakeResponsesStrict: true,
      recordResponses: undefined,
      version: false,
      help: false,
      command: argv[0],
      commandArgs: argv.slice(1),
    };
  }
  refuseUnsupported(argv);
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({
      args: withResumeDefault(argv),
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new ArgsError(parserMessage(error as Error));
  }
  const { values, positionals } = parsed;
  const command =
    positionals[0] !== undefined && SUBCOMMANDS.has(positionals[0]) ? positionals[0] : undefined;
  const queryWords = command ? positionals.slice(1) : positionals;
  const query = queryWords.length > 0 ? queryWords.join(' ') : undefined;

  if (values.prompt !== undefined && query !== undefined) {
    throw new ArgsError('Cannot use both a positional prompt and the --prompt (-p) flag together');
  }
  if (values.prompt !== undefined && values['prompt-interactive'] !== undefined) {
    throw new ArgsError('Cannot use both --prompt (-p) and --prompt-interactive (-i) together');
  }
  if (values.yolo && values['approval-mode'] !== undefined) {
    throw new ArgsError(
      'Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.',
    );
  }
  const outputFormat = values['output-format'];
  if (outputFormat !== undefined && !OUTPUT_FORMATS.includes(outputFormat as OutputFormat)) {
    throw new ArgsError(
      `Invalid value for --output-format: "${outputFormat}" (choices: ${OUTPUT_FORMATS.join(', ')})`,
    );
  }
  const inputFormat = values['input-format'];
  if (inputFormat !== undefined && !INPUT_FORMATS.includes(inputFormat as InputFormat)) {
    throw new ArgsError(
      `Invalid values:\n  Argument: input-format, Given: "${inputFormat}", Choices: ${INPUT_FORMATS.map((f) => `"${f}"`).join(', ')}`,
    );
  }
  if (values.acp && (values.prompt !== undefined || query !== undefined || inputFormat === 'stream-json')) {
    throw new ArgsError(
      '--acp takes its prompts from the editor: it cannot be used with a prompt or --input-format',
    );
  }
  const approvalMode = values.yolo ? 'yolo' : values['approval-mode'];
  if (approvalMode !== undefined && !CLI_APPROVAL_MODES.includes(approvalMode as ApprovalMode)) {
    throw new ArgsError(
      `Invalid value for --approval-mode: "${approvalMode}" (choices: ${CLI_APPROVAL_MODES.join(', ')})`,
    );
  }
  const effort = values.effort;
  if (effort !== undefined && !isEffort(effort)) {
    throw new ArgsError(
      `Invalid value for --effort: "${effort}" (choices: ${EFFORTS.join(', ')})`,
      BAD_INPUT_EXIT,
    );
  }
  if (values.resume !== undefined && values['session-id'] !== undefined) {
    throw new ArgsError(
      'The flags --resume, --session-id, and --session-file are mutually exclusive. Please provide only one.',
    );
  }
  const nonStrict = values['fake-responses-non-strict'];
  const budgets = budgetFlags(values);
  return {
    prompt: values.prompt,
    query,
    promptInteractive: values['prompt-interactive'],
    model: values.model,
    ...(effort !== undefined ? { effort } : {}),
    approvalMode: approvalMode as ApprovalMode | undefined,
    outputFormat: outputFormat as OutputFormat | undefined,
    debug: values.debug ?? false,
    // The non-strict flag wins when both are given.
    fakeResponses: nonStrict ?? values['fake-responses'],
    fakeResponsesStrict: nonStrict === undefined,
    recordResponses: values['record-responses'],
    ...listFlag('policyPaths', values.policy),
    ...listFlag('adminPolicyPaths', values['admin-policy']),
    version: values.version ?? false,
    // After a subcommand, --help asks for that subcommand's usage (commandHelp).
    help: (values.help ?? false) && !command,
    command,
    ...(command ? { commandArgs: queryWords } : {}),
    ...(values.resume !== undefined ? { resume: values.resume } : {}),
    ...(values.worktree !== undefined ? { worktree: values.worktree } : {}),
    ...(values['list-sessions'] ? { listSessions: true } : {}),
    ...(values['delete-session'] !== undefined ? { deleteSession: values['delete-session'] } : {}),
    ...(values['session-id'] !== undefined ? { sessionId: values['session-id'] } : {}),
    ...(values.sandbox ? { sandbox: true } : {}),
    ...(values['skip-trust'] ? { skipTrust: true } : {}),
    ...(values['json-schema'] !== undefined ? { jsonSchema: values['json-schema'] } : {}),
    ...(Object.keys(budgets).length > 0 ? { budgets } : {}),
    ...listFlag('extensions', values.extensions),
    ...(values['list-extensions'] ? { listExtensions: true } : {}),
    ...(values.acp ? { acp: true } : {}),
    ...(inputFormat !== undefined ? { inputFormat: inputFormat as InputFormat } : {}),
    ...allowedServers(values['allowed-mcp-server-names']),
    ...listFlag('includeDirectories', values['include-directories']),
    ...listFlag('allowedTools', values['allowed-tools']),
    ...(command && values.help ? { commandHelp: true } : {}),
  };
}

function allowedServers(values: string[] | undefined): { allowedMcpServerNames?: string[] } {
  if (values === undefined) return {};
  const names = values.flatMap((value) => value.split(',')).map((name) => name.trim());
  return { allowedMcpServerNames: names.filter((name) => name !== '') };
}

/** The `--max-*` flags, validated: positive amounts, whole numbers for counts, durations for time. */
function budgetFlags(values: {
  'max-budget-usd'?: string;
  'max-tokens'?: string;
  'max-tool-calls'?: string;
  'max-time'?: string;
}): BudgetLimits {
  const budgets: BudgetLimits = {};
  const number = (flag: string, text: string, { whole }: { whole: boolean }) => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
      throw new ArgsError(
        `Invalid value for --${flag}: "${text}" (expected a positive ${whole ? 'whole number' : 'number'})`,
      );
    }
    return value;
  };
  if (values['max-budget-usd'] !== undefined) {
    budgets.maxCostUsd = number('max-budget-usd', values['max-budget-usd'], { whole: false });
  }
  if (values['max-tokens'] !== undefined) {
    budgets.maxTokens = number('max-tokens', values['max-tokens'], { whole: true });
  }
  if (values['max-tool-calls'] !== undefined) {
    budgets.maxToolCalls = number('max-tool-calls', values['max-tool-calls'], { whole: true });
  }
  if (values['max-time'] !== undefined) {
    const ms = parseDuration(values['max-time']);
    if (ms === undefined) {
      throw new ArgsError(
        `Invalid value for --max-time: "${values['max-time']}" (expected seconds or a duration such as 90s, 15m, 2h)`,
      );
    }
    budgets.maxTimeMs = ms;
  }
  return budgets;
}

/**
 * A repeatable flag whose values may also be comma lists: `--policy a.toml,b --policy c`. A comma
 * inside parentheses stays: `--allowed-tools "run_shell_command(git log, ls)"` is one entry.
 */
function listFlag<
  K extends 'policyPaths' | 'adminPolicyPaths' | 'includeDirectories' | 'allowedTools' | 'extensions',
>(key: K, values: string[] | undefined): Partial<Record<K, string[]>> {
  const entries = (values ?? []).flatMap(splitOutsideParens).map((entry) => entry.trim());
  const nonEmpty = entries.filter((entry) => entry !== '');
  return nonEmpty.length > 0 ? ({ [key]: nonEmpty } as Partial<Record<K, string[]>>) : {};
}
