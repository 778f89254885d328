import { resolve } from 'node:path';
import { loadPart } from '../../on-demand';
import { controlFileAmong } from '../../safety/control-files';
import { builtinRules } from './defaults';
import type { optionEffects } from './option-effects';
import type {
  ApprovalMode,
  PolicyChecker,
  PolicyCheckInput,
  PolicyCheckResult,
  PolicyContext,
  PolicyDecision,
  PolicyToolInfo,
  PolicyWorkspace,
} from './policy';
import {
  agentAliasMatches,
  commandPrefixPattern,
  effectivePriority,
  escapeRegExp,
  type PolicyRule,
  ruleAppliesToTool,
  serverOf,
  sortRules,
} from './rule';
import { appendSavedRule, type SavedRule } from './saved-rules';
import type { ShellParser, ShellSubCommand } from './shell-parser';
import { stableStringifyArgs } from './stable-stringify';

export interface PolicyEngineOptions {
  /** Rules from policy files and settings (built-in rules are always added). */
  rules?: PolicyRule[];
  /** Plan mode lets `write_file`/`replace` save Markdown plans here. */
  plansDir?: string;
  /** Where "allow always and save" appends rules (`~/.kodo/policies/auto-saved.toml`). */
  autoSavePath?: string;
  /** Problems worth telling the person (a rule that could not be saved). */
  onFeedback?: (message: string) => void;
  /** Loads the shell parser; defaults to tree-sitter's bash grammar, on first shell check. */
  loadShellParser?: () => Promise<ShellParser>;
}

const SHELL_TOOL = 'run_shell_command';
/** Also matched by the name of the agent it starts (its `agent_name`). */
const INVOKE_AGENT = 'invoke_agent';
/** "Allow always" rules: workspace tier + .95 in the session, user tier + .95 once saved. */
const ALWAYS_ALLOW_PRIORITY = 950;
/** From least to most permissive: an approval given in one mode also holds in the later ones. */
const MODE_ORDER: readonly ApprovalMode[] = ['plan', 'default', 'auto_edit', 'yolo'];

interface Verdict {
  decision: PolicyDecision;
  rule?: PolicyRule;
}

/**
 * Gemini CLI's policy model: rules from built-in defaults, workspace, user and admin tiers,
 * tried in descending effective priority; the first match decides. Shell commands are split
 * into every command they would run and each part is checked; a redirection turns an allow into
 * a question. Without a person to ask (headless), a question is a denial.
 */
export class PolicyEngine implements PolicyChecker {
  private rules: PolicyRule[];
  /** Safety checkers kodo cannot run: each turns an allow of what it matches into an ask. */
  private checkers: PolicyRule[] = [];
  private shellParser: ShellParser | undefined;
  private shellParserLoading: Promise<ShellParser> | undefined;
  private shellParserFailureReported = false;
  private optionEffectsLoading: Promise<typeof optionEffects> | undefined;
  /** The mode of the latest check, for "allow always" answers that do not name one. */
  private lastMode: ApprovalMode = 'default';

  constructor(private readonly options: PolicyEngineOptions = {}) {
    const plansDir = options.plansDir;
    this.rules = sortRules(builtinRules(plansDir ? { plansDir } : {}));
    this.addRules(options.rules ?? []);
  }

  /** Every rule, highest priority first. */
  getRules(): readonly PolicyRule[] {
    return this.rules;
  }

  addRules(rules: PolicyRule[]): void {
    this.checkers.push(...rules.filter((rule) => rule.unenforcedChecker !== undefined));
    this.rules = sortRules([...this.rules, ...rules.filter((rule) => rule.unenforcedChecker === undefined)]);
  }

  async check(call: PolicyCheckInput, context: PolicyContext): Promise<PolicyCheckResult> {
    this.lastMode = context.mode;
    const verdict = this.withCheckers(await this.decide(call, context), call, context);
    const decision =
      verdict.decision === 'ask_user' && !context.interactive && !verdict.rule?.alwaysAsk
        ? 'deny'
        : verdict.decision;
    const denyMessage = decision === 'deny' ? verdict.rule?.denyMessage : undefined;
    return denyMessage ? { decision, denyMessage } : { decision };
  }

  isToolHidden(tool: PolicyToolInfo, context: PolicyContext): boolean {
    // A checker kodo cannot run over every call of the tool makes each call ask.
    const checked = this.checkers.some((c) => !c.argsPattern && ruleAppliesToTool(c, tool, context));
    for (const rule of this.rules) {
      if (!ruleAppliesToTool(rule, tool, context)) continue;
      // A rule on the arguments only decides some calls: an allow or ask keeps the tool
      // offered; a deny says nothing about the other calls.
      if (rule.argsPattern) {
        if (rule.decision === 'deny') continue;
        return false;
      }
      if (rule.alwaysAsk) return false;
      const decision = checked && rule.decision === 'allow' ? 'ask_user' : rule.decision;
      return effective(decision, context) === 'deny';
    }
    return effective(defaultDecision(context), context) === 'deny';
  }

  allowForSession(
    call: PolicyCheckInput,
    options: { save?: boolean; mode?: ApprovalMode; wholeServer?: boolean } = {},
  ): void {
    const mode = options.mode ?? this.lastMode;
    const modes = MODE_ORDER.slice(MODE_ORDER.indexOf(mode));
    const server = options.wholeServer ? serverOf(call) : undefined;
    if (server !== undefined) {
      this.addRules([
        {
          mcpName: server,
          decision: 'allow',
          priority: effectivePriority('workspace', ALWAYS_ALLOW_PRIORITY),
          modes,
          source: 'session',
        },
      ]);
      return;
    }
    const add = (matchers: SavedRule[]) => {
      this.addRules(
        matchers.map((matcher) => ({
          toolName: matcher.toolName,
          ...(matcher.commandPrefix ? { argsPattern: commandPrefixPattern(matcher.commandPrefix) } : {}),
          ...(matcher.argsPattern ? { argsPattern: new RegExp(matcher.argsPattern) } : {}),
          decision: 'allow' as const,
          priority: effectivePriority('workspace', ALWAYS_ALLOW_PRIORITY),
          modes,
          source: 'session',
        })),
      );
      if (options.save && this.options.autoSavePath) this.save(matchers, modes);
    };
    if (call.name === SHELL_TOOL && typeof call.args.command === 'string') {
      const command = call.args.command;
      // The parser is loaded: check() ran before the person was asked.
      if (this.shellParser) add(shellMatchers(this.shellParser, command));
      else
        void this.parser()
          .then((parser) => add(shellMatchers(parser, command)))
          .catch(() => undefined);
      return;
    }
    const filePath = call.args.file_path;
    if (typeof filePath === 'string' && filePath !== '') {
      const value = JSON.stringify(filePath).slice(1, -1);
      add([{ toolName: call.name, argsPattern: `\\x00"file_path":"${escapeRegExp(value)}"\\x00` }]);
      return;
    }
    add([{ toolName: call.name }]);
  }

  private save(matchers: SavedRule[], modes: readonly ApprovalMode[]): void {
    for (const matcher of matchers) {
      try {
        appendSavedRule(this.options.autoSavePath!, { ...matcher, priority: ALWAYS_ALLOW_PRIORITY, modes });
      } catch (error) {
        this.options.onFeedback?.(
          `Could not save the policy rule to ${this.options.autoSavePath}: ${(error as Error).message}`,
        );
      }
    }
  }

  private async decide(call: PolicyCheckInput, context: PolicyContext): Promise<Verdict> {
    const rule = this.match(call, stableStringifyArgs(call.args), context);
    const decision = rule?.decision ?? defaultDecision(context);
    if (rule?.alwaysAsk) return { decision, rule };
    if (call.name !== SHELL_TOOL || typeof call.args.command !== 'string' || decision === 'deny') {
      return { decision, ...(rule ? { rule } : {}) };
    }
    return this.decideShell(call, call.args.command, context, rule, decision);
  }

  private async decideShell(
    call: PolicyCheckInput,
    command: string,
    context: PolicyContext,
    rule: PolicyRule | undefined,
    decision: PolicyDecision,
  ): Promise<Verdict> {
    let parsed: ReturnType<ShellParser['parse']>;
    try {
      parsed = (await this.parser()).parse(command);
    } catch (error) {
      parsed = { ok: false, reason: (error as Error).message };
    }
    if (!parsed.ok) {
      // A command that cannot be read cannot be checked part by part.
      if (context.mode === 'yolo') return { decision: rule?.argsPattern ? 'deny' : 'allow' };
      return { decision: defaultDecision(context) };
    }
    const commands = parsed.commands;
    if (commands.length === 0) return { decision, ...(rule ? { rule } : {}) };
    const where = shellDirectory(call.args.dir_path, context.workspace);
    const effects = await this.optionEffects();
    if (commands.length === 1 && commands[0]!.text === command.trim()) {
      return {
        decision: downgradeRedirection(decision, commands[0]!, { rule, context, where, effects }),
        ...(rule ? { rule } : {}),
      };
    }
    // A compound command: every part must be allowed on its own. An ask from a rule written
    // for the whole line (an args pattern) still holds.
    let aggregate: PolicyDecision = rule?.argsPattern && decision === 'ask_user' ? 'ask_user' : 'allow';
    for (const part of commands) {
      const partRule = this.match({ ...call, args: { command: part.text } }, undefined, context);
      const partDecision = downgradeRedirection(partRule?.decision ?? defaultDecision(context), part, {
        rule: partRule,
        context,
        where,
        effects,
      });
      if (partDecision === 'deny') return { decision: 'deny', ...(partRule ? { rule: partRule } : {}) };
      if (partDecision === 'ask_user') aggregate = 'ask_user';
    }
    return { decision: aggregate };
  }

  /** An allow that a checker kodo cannot run covers becomes a question (refused headless). */
  private withCheckers(verdict: Verdict, call: PolicyCheckInput, context: PolicyContext): Verdict {
    if (verdict.decision !== 'allow' || this.checkers.length === 0) return verdict;
    const text = stableStringifyArgs(call.args);
    const checker = this.checkers.find(
      (rule) => ruleAppliesToTool(rule, call, context) && (!rule.argsPattern || rule.argsPattern.test(text)),
    );
    return checker ? { decision: 'ask_user', rule: checker } : verdict;
  }

  private match(
    call: PolicyCheckInput,
    stringified: string | undefined,
    context: PolicyContext,
  ): PolicyRule | undefined {
    const text = stringified ?? stableStringifyArgs(call.args);
    const agentName =
      call.name === INVOKE_AGENT && typeof call.args.agent_name === 'string'
        ? call.args.agent_name
        : undefined;
    return this.rules.find(
      (rule) =>
        (ruleAppliesToTool(rule, call, context) ||
          (agentName !== undefined &&
            agentAliasMatches(rule, agentName) &&
            ruleAppliesToTool({ ...rule, toolName: undefined }, call, context))) &&
        (!rule.argsPattern || rule.argsPattern.test(text)),
    );
  }

  /** Loaded with the first shell command, as the grammar is (on-demand.ts). */
  private optionEffects(): Promise<typeof optionEffects> {
    this.optionEffectsLoading ??= loadPart.optionEffects().then(
      (module) => module.optionEffects,
      (error: unknown) => {
        this.optionEffectsLoading = undefined;
        throw error;
      },
    );
    return this.optionEffectsLoading;
  }

  private parser(): Promise<ShellParser> {
    if (this.shellParser) return Promise.resolve(this.shellParser);
    const load = this.options.loadShellParser ?? defaultShellParserLoader;
    this.shellParserLoading ??= load().then(
      (parser) => {
        this.shellParser = parser;
        return parser;
      },
      (error: unknown) => {
        // Let a later check try again rather than failing every shell call for the session.
        this.shellParserLoading = undefined;
        // Said once: without the parser every shell command needs approval (headless: refused),
        // which would otherwise look like a policy that denies for no reason.
        if (!this.shellParserFailureReported) {
          this.shellParserFailureReported = true;
          this.options.onFeedback?.(
            `The shell parser could not load (${(error as Error).message}); every shell command needs approval.`,
          );
        }
        throw error;
      },
    );
    return this.shellParserLoading;
  }
}

async function defaultShellParserLoader(): Promise<ShellParser> {
  // Imported on demand: the parser module pulls in tree-sitter.
  const { loadShellParser } = await loadPart.shellParser();
  return loadShellParser();
}

/** No rule matched: yolo runs it, otherwise the person decides (headless: refused). */
function defaultDecision(context: PolicyContext): PolicyDecision {
  return context.mode === 'yolo' ? 'allow' : 'ask_user';
}

function effective(decision: PolicyDecision, context: PolicyContext): PolicyDecision {
  return decision === 'ask_user' && !context.interactive ? 'deny' : decision;
}

/**
 * Writing or reading files through redirection needs a person's OK unless the rule or mode says
 * so. Even then (a rule's `allowRedirection`, or `auto_edit`), only literal targets inside the
 * workspace (and /dev/null) are allowed without asking, and never a control file such as
 * `.git/hooks/…`: `git status > ~/.bashrc` asks. yolo allows everything. An option that makes
 * the command write a file or run a program (`git log --output=x`, `find -exec`; see
 * option-effects.ts) counts as a redirection: a rule for the command does not cover it.
 */
function downgradeRedirection(
  decision: PolicyDecision,
  command: ShellSubCommand,
  options: {
    rule: PolicyRule | undefined;
    context: PolicyContext;
    where: string | undefined;
    effects: typeof optionEffects;
  },
): PolicyDecision {
  const { rule, context } = options;
  if (decision !== 'allow' || context.mode === 'yolo') return decision;
  const optionWrites = options.effects(command.words);
  if (!command.redirected && optionWrites.length === 0) return decision;
  if (!rule?.allowRedirection && context.mode !== 'auto_edit') return 'ask_user';
  const allInside = [...command.redirects, ...optionWrites].every(
    (redirect) => !redirect.touchesFile || targetInside(redirect.target, options.where, context.workspace),
  );
  return allInside ? decision : 'ask_user';
}

/** The directory a shell call runs in (its `dir_path`), absolute; undefined without a workspace. */
function shellDirectory(dirPath: unknown, workspace: PolicyWorkspace | undefined): string | undefined {
  if (!workspace) return undefined;
  return workspace.absolute(typeof dirPath === 'string' && dirPath !== '' ? dirPath : '.');
}

function targetInside(
  target: string | undefined,
  where: string | undefined,
  workspace: PolicyWorkspace | undefined,
) {
  if (target === undefined || where === undefined || !workspace) return false;
  const absolute = resolve(where, target);
  return workspace.contains(absolute) && controlFileAmong([absolute], workspace.roots) === undefined;
}

/** "Allow always" for a shell line: one command-prefix rule per root command. */
function shellMatchers(parser: ShellParser, command: string): SavedRule[] {
  const parsed = parser.parse(command);
  if (!parsed.ok) return [];
  const roots = [...new Set(parsed.commands.map((part) => part.root).filter((root) => root !== ''))];
  return roots.map((root) => ({ toolName: SHELL_TOOL, commandPrefix: root }));
}
