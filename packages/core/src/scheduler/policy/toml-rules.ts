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
  /** Feedback lines for stderr: `[USER] Policy file error in <file>: …`. */
  messages: string[];
}

const DECISIONS: readonly PolicyDecision[] = ['allow', 'deny', 'ask_user'];
const SHELL_TOOL = 'run_shell_command';

/**
 * Reads one policy file in Gemini CLI's TOML format (`[[rule]]` tables). A broken file yields a
 * message and no rules; a broken rule yields a message and the file's other rules still load.
 * `[[safety_checker]]` tables are accepted and ignored (kodo has no safety checkers yet).
 */
export function parsePolicyToml(text: string, options: { tier: PolicyTier; file: string }): ParsedPolicyFile {
  const prefix = `[${options.tier.toUpperCase()}] Policy file error in ${options.file}:`;
  let document: Record<string, unknown>;
  try {
    document = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    return { rules: [], messages: [`${prefix} ${tomlErrorText(error)}`] };
  }
  const tables = document.rule;
  if (tables === undefined) return { rules: [], messages: [] };
  if (!Array.isArray(tables)) {
    return { rules: [], messages: [`${prefix} "rule" must be an array of tables ([[rule]])`] };
  }
  const rules: PolicyRule[] = [];
  const messages: string[] = [];
  tables.forEach((table, index) => {
    const compiled = compileRule(table, options);
    const where = `rule #${index + 1}`;
    if (typeof compiled === 'string') messages.push(`${prefix} ${where}: ${compiled}`);
    else {
      rules.push(...compiled.rules);
      for (const warning of compiled.warnings) {
        messages.push(
          `[${options.tier.toUpperCase()}] Policy file warning in ${options.file}: ${where}: ${warning}`,
        );
      }
    }
  });
  return { rules, messages };
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
  // Rules for a subagent's calls: kodo runs no subagents, so such a rule can never match.
  if (raw.subagent !== undefined) return { rules: [], warnings };

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
        source: options.file,
      });
    }
  }
  return { rules, warnings };
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
