import type { ToolKind } from '../../tools/tool';
import type { ApprovalMode, PolicyDecision } from './policy';
import { effectivePriority, escapeRegExp, type PolicyRule } from './rule';

export const PLAN_MODE_DENY_MESSAGE =
  'You are in Plan Mode with access to read-only tools. Execution of scripts (including those from skills) is blocked.';
export const PLAN_MODE_WRITE_DENY_MESSAGE =
  'You are in Plan Mode and cannot modify source code. You may ONLY use write_file or replace to save plans to the designated plans directory as .md files.';
export const ALREADY_IN_PLAN_MODE_MESSAGE = 'You are already in Plan Mode.';
export const NOT_IN_PLAN_MODE_MESSAGE =
  'You are not currently in Plan Mode. Use enter_plan_mode first to design a plan.';

/** Tools that only read: allowed in every mode. */
const READ_ONLY_TOOLS = [
  'glob',
  'grep_search',
  'list_directory',
  'read_file',
  'google_web_search',
  // kodo: the provider-neutral search reads like google_web_search does.
  'web_search',
  'get_internal_docs',
  'update_topic',
  'complete_task',
  'read_mcp_resource',
  'list_mcp_resources',
  'tracker_*',
  'codebase_investigator',
  'cli_help',
  'invoke_agent',
  // kodo: background process inspection reads only; the todo list is session state.
  'list_background_processes',
  'read_background_output',
  'write_todos',
];
/** Tools that change things or reach out: they ask in `default` mode. */
const CONFIRMED_TOOLS = [
  'replace',
  'write_file',
  // kodo: the edit tool of OpenAI's models (a patch over any number of files).
  'apply_patch',
  'run_shell_command',
  'web_fetch',
  'activate_skill',
  'save_memory',
  'discovered_tool_*',
];
const AUTO_EDIT_TOOLS = ['replace', 'write_file', 'apply_patch', 'web_fetch'];
/**
 * kodo's addition: tools of a reading kind that no rule names (tools added later, MCP tools
 * that declare a kind) are allowed too. Fetch is left out: `web_fetch` reaches the network and
 * asks, as in Gemini CLI.
 */
const READ_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search']);

const ALL_BUT_PLAN: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo'];

interface BuiltinRule {
  toolName?: string;
  decision: PolicyDecision;
  priority: number;
  modes?: readonly ApprovalMode[];
  interactive?: boolean;
  argsPattern?: RegExp;
  toolAnnotations?: Record<string, unknown>;
  allowRedirection?: boolean;
  denyMessage?: string;
  kinds?: ReadonlySet<ToolKind>;
}

/**
 * The default tier (1.xxx): what each approval mode allows before any policy file is read.
 * `default`: reading runs, edits and the shell ask; `auto_edit`: edits run too; `yolo`:
 * everything runs; `plan`: reading only, plus Markdown plans in the plans directory.
 */
export function builtinRules(options: { plansDir?: string } = {}): PolicyRule[] {
  const rules: BuiltinRule[] = [
    ...READ_ONLY_TOOLS.map((toolName) => ({ toolName, decision: 'allow' as const, priority: 50 })),
    { kinds: READ_KINDS, decision: 'allow', priority: 45 },
    ...CONFIRMED_TOOLS.map((toolName) => ({ toolName, decision: 'ask_user' as const, priority: 10 })),
    ...AUTO_EDIT_TOOLS.map((toolName) => ({
      toolName,
      decision: 'allow' as const,
      priority: 15,
      modes: ['auto_edit'] as const,
    })),
    // yolo: everything, redirections included; questions still go to the person.
    { toolName: '*', decision: 'allow', priority: 998, modes: ['yolo'], allowRedirection: true },
    // ask_user's question is itself the prompt: no approval dialog before it, in any mode.
    { toolName: 'ask_user', decision: 'allow', priority: 999, modes: ['yolo'], interactive: true },
    { toolName: 'ask_user', decision: 'allow', priority: 50, interactive: true },
    { toolName: 'enter_plan_mode', decision: 'deny', priority: 999, modes: ['yolo'], interactive: true },
    { toolName: 'exit_plan_mode', decision: 'deny', priority: 999, modes: ['yolo'], interactive: true },
    // A skill's body is only text the user installed, and reading it runs nothing: headless runs
    // may activate skills without a person (docs/extending.md). Interactive runs still ask.
    { toolName: 'activate_skill', decision: 'allow', priority: 11, interactive: false },
    // Planning restricts what runs: headless runs may enter it unasked, interactive ones ask.
    { toolName: 'enter_plan_mode', decision: 'ask_user', priority: 10 },
    { toolName: 'enter_plan_mode', decision: 'allow', priority: 11, interactive: false },
    // Nobody can answer a question in headless mode.
    { toolName: 'ask_user', decision: 'deny', priority: 999, interactive: false },
    {
      toolName: 'exit_plan_mode',
      decision: 'deny',
      priority: 60,
      modes: ALL_BUT_PLAN,
      denyMessage: NOT_IN_PLAN_MODE_MESSAGE,
    },
    // plan: a catch-all deny under the read-only allows.
    { decision: 'deny', priority: 40, modes: ['plan'], denyMessage: PLAN_MODE_DENY_MESSAGE },
    ...['ask_user', 'web_fetch', 'activate_skill'].map((toolName) => ({
      toolName,
      decision: 'ask_user' as const,
      priority: 70,
      modes: ['plan'] as const,
      interactive: true,
    })),
    {
      toolName: 'mcp_*',
      toolAnnotations: { readOnlyHint: true },
      decision: 'ask_user',
      priority: 70,
      modes: ['plan'],
      interactive: true,
    },
    ...['write_file', 'replace'].flatMap((toolName): BuiltinRule[] => [
      {
        toolName,
        argsPattern: planFilePattern(options.plansDir),
        decision: 'allow',
        priority: 70,
        modes: ['plan'],
      },
      {
        toolName,
        decision: 'deny',
        priority: 65,
        modes: ['plan'],
        denyMessage: PLAN_MODE_WRITE_DENY_MESSAGE,
      },
    ]),
    // A patch names its files in its text, where no plans-directory rule can look: refused in plan mode.
    {
      toolName: 'apply_patch',
      decision: 'deny',
      priority: 65,
      modes: ['plan'],
      denyMessage: PLAN_MODE_WRITE_DENY_MESSAGE,
    },
    { toolName: 'exit_plan_mode', decision: 'ask_user', priority: 70, modes: ['plan'], interactive: true },
    { toolName: 'exit_plan_mode', decision: 'allow', priority: 70, modes: ['plan'], interactive: false },
    {
      toolName: 'enter_plan_mode',
      decision: 'deny',
      priority: 70,
      modes: ['plan'],
      denyMessage: ALREADY_IN_PLAN_MODE_MESSAGE,
    },
  ];
  return rules.map(({ priority, ...rule }) => ({
    ...rule,
    priority: effectivePriority('default', priority),
    source: 'built-in',
  }));
}

/**
 * `file_path` is a Markdown file inside the plans directory (absolute) or a relative `plans/`.
 * Path segments may not start with a dot, so `..` cannot climb out of the directory.
 */
export function planFilePattern(plansDir: string | undefined): RegExp {
  const separator = String.raw`(?:/|\\\\)`;
  const segment = String.raw`[\w-][\w.-]*`;
  const roots = ['plans'];
  if (plansDir) roots.unshift(escapeRegExp(JSON.stringify(plansDir.replace(/[/\\]+$/, '')).slice(1, -1)));
  return new RegExp(
    String.raw`\x00"file_path":"(?:${roots.join('|')})${separator}(?:${segment}${separator})*${segment}\.md"\x00`,
  );
}
