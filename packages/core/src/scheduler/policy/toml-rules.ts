import { parse as parseToml, TomlError } from 'smol-toml';
import type { ApprovalMode, PolicyDecision } from './policy';
import {
  commandPrefixPattern,
  commandRegexPattern,
  effectivePriority,
  type PolicyRule,
  type PolicyTier,
  parseMode,
} from './rule';

export interface ParsedPolicyFile {
  rules: PolicyRule[];
  /**
   * What could not be read (`[USER] Policy file error in <file>: …`): the file said something
   * kodo does not know, so loading it without that part could allow more than it meant.
   */
  errors: string[];
  /** What was read, in a stricter form than written (`[USER] Policy file warning in <file>: …`). */
  warnings: string[];
}

const DECISIONS: readonly PolicyDecision[] = ['allow', 'deny', 'ask_user'];
const SHELL_TOOL = 'run_shell_command';

/** The fields of a `[[rule]]` table kodo reads (snake_case spellings included). */
const RULE_FIELDS = new Set([
  'toolName',
  'mcpName',
  'subagent',
  'argsPattern',
  'commandPrefix',
  'commandRegex',
  'decision',
  'priority',
  'modes',
  'interactive',
  'toolAnnotations',
  'allowRedirection',
  'allow_redirection',
  'denyMessage',
  'deny_message',
]);

/**
 * Reads one policy file in Gemini CLI's TOML format (`[[rule]]` and `[[safety_checker]]`
 * tables). What kodo cannot read is an error (the caller decides whether the run may go on);
 * what it reads in a stricter form than written is a warning. Never silently dropped:
 * - a field kodo does not know makes a deny or ask rule apply without it (more broadly), and
 *   drops an allow rule (it may have been narrower than kodo would read it);
 * - a safety checker kodo cannot run makes the calls it covers ask instead of being allowed.
 */
export function parsePolicyToml(text: string, options: { tier: PolicyTier; file: string }): ParsedPolicyFile {
  const tier = options.tier.toUpperCase();
  const prefix = `[${tier}] Policy file error in ${options.file}:`;
  const warn = `[${tier}] Policy file warning in ${options.file}:`;
  let document: Record<string, unknown>;
  try {
    document = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    return { rules: [], errors: [`${prefix} ${tomlErrorText(error)}`], warnings: [] };
  }
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const key of Object.keys(document)) {
    if (key !== 'rule' && key !== 'safety_checker') {
      errors.push(`${prefix} unknown table "${key}" (kodo reads [[rule]] and [[safety_checker]])`);
    }
  }
  const sections = [
    { key: 'rule', label: 'rule', compile: compileRule },
    { key: 'safety_checker', label: 'safety_checker', compile: compileChecker },
  ] as const;
  for (const section of sections) {
    const tables = document[section.key];
    if (tables === undefined) continue;
    if (!Array.isArray(tables)) {
      errors.push(`${prefix} "${section.key}" must be an array of tables ([[${section.key}]])`);
      continue;
    }
    tables.forEach((table, index) => {
      const where = `${section.label} #${index + 1}`;
      const compiled = section.compile(table, options);
      if (typeof compiled === 'string') {
        errors.push(`${prefix} ${where}: ${compiled}`);
        return;
      }
      rules.push(...compiled.rules);
      for (const warning of compiled.warnings) warnings.push(`${warn} ${where}: ${warning}`);
    });
  }
  return { rules, errors, warnings };
}

function tomlErrorText(error: unknown): string {
  if (error instanceof TomlError) {
    const first = error.message.split('\n')[0] ?? error.message;
    return `${first} (line ${error.line}, column ${error.column})`;
  }
  return (error as Error).message;
}

/** One `[[rule]]` table → rules (one per tool name and command prefix), or what is wrong. */
function compileRule(
  table: unknown,
  options: { tier: PolicyTier; file: string },
): { rules: PolicyRule[]; warnings: string[] } | string {
  if (table === null || typeof table !== 'object' || Array.isArray(table)) return 'not a table';
  const raw = table as Record<string, unknown>;
  const warnings: string[] = [];

  const names = raw.toolName;
  let toolNames: string[];
  if (typeof names === 'string') toolNames = [names];
  else if (Array.isArray(names) && names.length > 0 && names.every((n) => typeof n === 'string'))
    toolNames = names;
  else if (names === undefined && typeof raw.mcpName === 'string') toolNames = ['*'];
  else return 'toolName must be a string or an array of strings';
  if (toolNames.some((name) => name === '')) return 'toolName must not be empty';
  for (const name of toolNames) {
    if (name.includes('__')) {
      warnings.push(
        `toolName "${name}" uses the old "server__tool" MCP syntax; use mcpName or "mcp_<server>_<tool>"`,
      );
    }
  }
  if (raw.mcpName !== undefined && (typeof raw.mcpName !== 'string' || raw.mcpName === '')) {
    return 'mcpName must be a non-empty string';
  }
  const mcpName = raw.mcpName as string | undefined;

  if (typeof raw.decision !== 'string' || !DECISIONS.includes(raw.decision as PolicyDecision)) {
    return `decision must be one of ${DECISIONS.map((d) => `"${d}"`).join(', ')}`;
  }
  const priority = raw.priority;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 999) {
    return 'priority must be an integer from 0 to 999';
  }

  const matchers = ['argsPattern', 'commandPrefix', 'commandRegex'].filter((key) => raw[key] !== undefined);
  if (matchers.length > 1) return `${matchers.join(' and ')} cannot be used together`;
  const isShellOnly = raw.commandPrefix !== undefined || raw.commandRegex !== undefined;
  if (isShellOnly && (toolNames.length !== 1 || toolNames[0] !== SHELL_TOOL || mcpName !== undefined)) {
    return `commandPrefix and commandRegex need toolName = "${SHELL_TOOL}"`;
  }

  let patterns: (RegExp | undefined)[] = [undefined];
  try {
    if (raw.argsPattern !== undefined) {
      if (typeof raw.argsPattern !== 'string') return 'argsPattern must be a string';
      patterns = [new RegExp(raw.argsPattern)];
    } else if (raw.commandRegex !== undefined) {
      if (typeof raw.commandRegex !== 'string') return 'commandRegex must be a string';
      patterns = [commandRegexPattern(raw.commandRegex)];
    } else if (raw.commandPrefix !== undefined) {
      const prefixes = typeof raw.commandPrefix === 'string' ? [raw.commandPrefix] : raw.commandPrefix;
      if (
        !Array.isArray(prefixes) ||
        prefixes.length === 0 ||
        !prefixes.every((p) => typeof p === 'string' && p !== '')
      ) {
        return 'commandPrefix must be a non-empty string or an array of them';
      }
      patterns = prefixes.map((prefix) => commandPrefixPattern(prefix));
    }
  } catch (error) {
    return `invalid regular expression: ${(error as Error).message}`;
  }

  let modes: ApprovalMode[] | undefined;
  if (raw.modes !== undefined) {
    if (!Array.isArray(raw.modes)) return 'modes must be an array';
    modes = [];
    for (const value of raw.modes) {
      const mode = typeof value === 'string' ? parseMode(value) : undefined;
      if (!mode) return `unknown mode ${JSON.stringify(value)} (use "default", "autoEdit", "yolo" or "plan")`;
      modes.push(mode);
    }
  }
  if (raw.interactive !== undefined && typeof raw.interactive !== 'boolean')
    return 'interactive must be true or false';
  const annotations = raw.toolAnnotations;
  if (
    annotations !== undefined &&
    (annotations === null || typeof annotations !== 'object' || Array.isArray(annotations))
  ) {
    return 'toolAnnotations must be a table';
  }
  const allowRedirection = raw.allowRedirection ?? raw.allow_redirection;
  if (allowRedirection !== undefined && typeof allowRedirection !== 'boolean') {
    return 'allowRedirection must be true or false';
  }
  const denyMessage = raw.denyMessage ?? raw.deny_message;
  if (denyMessage !== undefined && typeof denyMessage !== 'string') return 'denyMessage must be a string';
  const subagent = raw.subagent;
  if (subagent !== undefined && (typeof subagent !== 'string' || subagent === '')) {
    return 'subagent must be a non-empty string (the name of an agent)';
  }
  const unknown = Object.keys(raw).filter((key) => !RULE_FIELDS.has(key));
  if (unknown.length > 0) {
    const names = unknown.map((key) => `"${key}"`).join(', ');
    const field = unknown.length === 1 ? 'the field' : 'the fields';
    if (raw.decision === 'allow') {
      // Unknown conditions may have narrowed what it allows: allowing more than it says is worse
      // than asking.
      warnings.push(`kodo does not know ${field} ${names}; this allow rule is dropped`);
      return { rules: [], warnings };
    }
    warnings.push(
      `kodo does not know ${field} ${names}; this ${raw.decision} rule applies without ${unknown.length === 1 ? 'it' : 'them'} (to more calls than written)`,
    );
  }

  const rules: PolicyRule[] = [];
  for (const name of toolNames) {
    for (const argsPattern of patterns) {
      rules.push({
        ...qualifiedName(name, mcpName),
        decision: raw.decision as PolicyDecision,
        priority: effectivePriority(options.tier, priority),
        ...(argsPattern ? { argsPattern } : {}),
        ...(modes && modes.length > 0 ? { modes } : {}),
        ...(raw.interactive !== undefined ? { interactive: raw.interactive as boolean } : {}),
        ...(annotations ? { toolAnnotations: annotations as Record<string, unknown> } : {}),
        ...(allowRedirection !== undefined ? { allowRedirection: allowRedirection as boolean } : {}),
        ...(denyMessage !== undefined ? { denyMessage: denyMessage as string } : {}),
        ...(subagent !== undefined ? { subagent: subagent as string } : {}),
        source: options.file,
      });
    }
  }
  return { rules, warnings };
}

/**
 * One `[[safety_checker]]` table → rules that make the calls it covers ask. kodo runs no safety
 * checkers (Gemini CLI's `allowed-path`, `conseca` or external ones); a checker can only make a
 * decision stricter, and kodo cannot tell when it would have, so every call it covers needs
 * approval (refused headless) instead of being allowed unchecked.
 */
function compileChecker(
  table: unknown,
  options: { tier: PolicyTier; file: string },
): { rules: PolicyRule[]; warnings: string[] } | string {
  if (table === null || typeof table !== 'object' || Array.isArray(table)) return 'not a table';
  const {
    checker,
    required_context: _context,
    config: _config,
    ...matchers
  } = table as Record<string, unknown>;
  const name = (checker as { name?: unknown } | undefined)?.name;
  if (checker === null || typeof checker !== 'object' || typeof name !== 'string' || name === '') {
    return 'checker must be a table with a name ({ type = "in-process", name = "…" })';
  }
  const compiled = compileRule(
    {
      ...(matchers.toolName === undefined && matchers.mcpName === undefined ? { toolName: '*' } : {}),
      ...matchers,
      decision: 'ask_user',
      priority: matchers.priority ?? 0,
    },
    options,
  );
  if (typeof compiled === 'string') return compiled;
  return {
    rules: compiled.rules.map((rule) => ({ ...rule, unenforcedChecker: name })),
    warnings: [
      ...compiled.warnings,
      `kodo cannot run the checker "${name}"; the calls it covers ask for approval (refused without a person) instead of running unchecked`,
    ],
  };
}

/** `mcpName` + `toolName` → the qualified `mcp_<server>_<tool>` pattern and a server filter. */
function qualifiedName(
  toolName: string,
  mcpName: string | undefined,
): Pick<PolicyRule, 'toolName' | 'mcpName'> {
  if (mcpName === undefined) return { toolName };
  if (mcpName === '*') return { mcpName, toolName: toolName === '*' ? '*' : `mcp_*_${toolName}` };
  return {
    mcpName,
    toolName: toolName.startsWith(`mcp_${mcpName}_`) ? toolName : `mcp_${mcpName}_${toolName}`,
  };
}
