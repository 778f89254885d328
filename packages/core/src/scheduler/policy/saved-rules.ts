import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ApprovalMode } from './policy';

/** What an "allow always" rule matches: a tool, optionally a command prefix or an args pattern. */
export interface SavedRule {
  toolName: string;
  commandPrefix?: string;
  argsPattern?: string;
}

const TOML_MODE: Readonly<Record<ApprovalMode, string>> = {
  default: 'default',
  auto_edit: 'autoEdit',
  yolo: 'yolo',
  plan: 'plan',
};

/**
 * Appends an allow rule to the auto-saved policy file (creating it and its directory), unless
 * the file already holds the same rule. Synchronous so that the rule is on disk before the call
 * it approved runs.
 */
export function appendSavedRule(
  path: string,
  rule: SavedRule & { priority: number; modes: readonly ApprovalMode[] },
): boolean {
  const block = formatRule(rule);
  let existing = '';
  try {
    existing = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (normalize(existing).includes(normalize(block))) return false;
  mkdirSync(dirname(path), { recursive: true });
  const separator = existing === '' ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  appendFileSync(path, `${separator}${block}`, { mode: 0o600 });
  return true;
}

function formatRule(rule: SavedRule & { priority: number; modes: readonly ApprovalMode[] }): string {
  const lines = ['[[rule]]', `toolName = ${tomlString(rule.toolName)}`];
  if (rule.commandPrefix !== undefined) lines.push(`commandPrefix = ${tomlString(rule.commandPrefix)}`);
  if (rule.argsPattern !== undefined) lines.push(`argsPattern = ${tomlString(rule.argsPattern)}`);
  lines.push('decision = "allow"', `priority = ${rule.priority}`);
  lines.push(`modes = [${rule.modes.map((mode) => tomlString(TOML_MODE[mode])).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

/**
 * A TOML basic string. JSON's escapes (`\"`, `\\`, `\n`, `\uXXXX`…) are all valid TOML; TOML
 * also wants DEL escaped.
 */
function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007F');
}

function normalize(text: string): string {
  return text.replace(/\r\n/g, '\n');
}
