import { basename } from 'node:path';
import { EFFORTS, type Effort, isEffort } from '../llm/effort';
import { parseFrontmatter, stringList } from '../utils/frontmatter';
import { isRecord } from '../utils/is-record';
import { mapModelName, mapToolName } from './claude-tools';
import { type AgentDefinition, type AgentScope, DEFAULT_AGENT_LIMITS } from './definition';

export interface AgentFileSource {
  scope: AgentScope;
  path: string;
  /** The folder's program: decides nothing but is recorded (Claude Code folders, Gemini CLI's, kodo's). */
  format: 'gemini' | 'claude' | 'kodo';
  /** Claude Code plugins name their agents `<plugin>:<name>`. */
  namePrefix?: string;
  extensionName?: string;
}

export interface AgentFileResult {
  definition?: AgentDefinition;
  /** Problems that did not stop the file from loading (unknown keys, unmapped tools). */
  warnings: string[];
  /**
   * What kodo cannot give a Claude Code plugin's agent (a tool it has no counterpart for): the
   * person cannot fix these, so they are reported once (compat-notes.ts), not on every run.
   */
  notes?: string[];
  /** Why the file is not an agent. */
  error?: string;
}

/** Keys kodo reads, in Gemini CLI's snake_case and Claude Code's camelCase spellings. */
const KNOWN_KEYS = new Set([
  'name',
  'description',
  'kind',
  'display_name',
  'tools',
  'disallowedTools',
  'disallowed_tools',
  'mcp_servers',
  'mcpServers',
  'model',
  'temperature',
  'effort',
  'max_turns',
  'maxTurns',
  'timeout_mins',
]);
/** Claude Code keys with no effect in kodo (colours, memory, isolation…): accepted silently. */
const IGNORED_KEYS = new Set([
  'color',
  'permissionMode',
  'skills',
  'hooks',
  'memory',
  'isolation',
  'background',
  'initialPrompt',
]);

/**
 * Reads one agent file: YAML frontmatter, body = system prompt. Lenient where Gemini CLI is
 * strict: an unknown key is a warning, `tools` may be a list or a comma string, Claude Code tool
 * and model names are mapped to kodo's. Refused: no frontmatter, no description, a name that
 * cannot be a tool argument, and remote (A2A) agents, which kodo does not run.
 */
export async function parseAgentFile(text: string, source: AgentFileSource): Promise<AgentFileResult> {
  const where = source.path;
  const warnings: string[] = [];
  const parsed = await parseFrontmatter(text);
  if (!parsed)
    return { warnings, error: `${where}: Missing mandatory YAML frontmatter (a block between --- lines).` };
  if (parsed.list)
    return { warnings, error: `${where}: remote (A2A) agent lists are not supported by kodo.` };
  if (parsed.yamlError)
    warnings.push(
      `${where}: the frontmatter is not valid YAML (${parsed.yamlError.split('\n')[0]}); read line by line.`,
    );
  const data = parsed.data;
  for (const key of Object.keys(data)) {
    if (!KNOWN_KEYS.has(key) && !IGNORED_KEYS.has(key))
      warnings.push(`${where}: unknown key "${key}" ignored.`);
  }
  if (data.kind !== undefined && data.kind !== 'local') {
    return {
      warnings,
      error: `${where}: kind "${String(data.kind)}" is not supported by kodo (only local agents run).`,
    };
  }
  const rawName = typeof data.name === 'string' && data.name.trim() !== '' ? data.name.trim() : undefined;
  const name = rawName ?? basename(where).replace(/\.md$/, '');
  if (!rawName) warnings.push(`${where}: no "name"; using "${name}" from the file name.`);
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    return { warnings, error: `${where}: the name "${name}" may only hold letters, digits, "-" and "_".` };
  }
  const description = typeof data.description === 'string' ? data.description.trim() : '';
  if (description === '')
    return { warnings, error: `${where}: "description" is required and must be a non-empty string.` };
  const fullName = source.namePrefix ? `${source.namePrefix}:${name}` : name;
  // A plugin's agent is not the person's to edit: what kodo cannot map becomes a note.
  const notes: string[] = [];
  const unmapped = source.namePrefix
    ? { notes, where: `Plugin "${source.namePrefix}" agent "${fullName}"` }
    : { notes: warnings, where };
  const tools = toolList(data.tools, 'tools', where, warnings, unmapped);
  const disallowed = toolList(
    data.disallowedTools ?? data.disallowed_tools,
    'disallowedTools',
    where,
    warnings,
    unmapped,
  );
  const model = typeof data.model === 'string' ? mapModelName(data.model) : undefined;
  const temperature =
    typeof data.temperature === 'number' && Number.isFinite(data.temperature) ? data.temperature : undefined;
  const effort = effortOf(data.effort, where, warnings);
  const maxTurns = positiveInt(data.max_turns ?? data.maxTurns, 'max_turns', where, warnings);
  const timeout = positiveInt(data.timeout_mins, 'timeout_mins', where, warnings);
  const mcpServers = data.mcp_servers ?? data.mcpServers;
  const definition: AgentDefinition = {
    name: fullName,
    ...(typeof data.display_name === 'string' ? { displayName: data.display_name } : {}),
    description,
    systemPrompt: parsed.body,
    ...(tools ? { tools } : {}),
    ...(disallowed ? { disallowedTools: disallowed } : {}),
    ...(model ? { model } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(effort ? { effort } : {}),
    limits: {
      maxTurns: maxTurns ?? DEFAULT_AGENT_LIMITS.maxTurns,
      timeoutMinutes: timeout ?? DEFAULT_AGENT_LIMITS.timeoutMinutes,
    },
    inputName: 'query',
    ...(isRecord(mcpServers) ? { mcpServers } : {}),
    source: {
      scope: source.scope,
      path: source.path,
      format: source.format,
      ...(source.extensionName ? { extensionName: source.extensionName } : {}),
    },
  };
  return { definition, warnings, ...(notes.length > 0 ? { notes } : {}) };
}

function toolList(
  value: unknown,
  key: string,
  where: string,
  warnings: string[],
  unmapped: { notes: string[]; where: string },
): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const entries = stringList(value);
  if (!entries) {
    warnings.push(`${where}: "${key}" must be a list or a comma-separated string; ignored.`);
    return undefined;
  }
  const names: string[] = [];
  for (const entry of entries) {
    const mapped = mapToolName(entry);
    if (!mapped.ok)
      unmapped.notes.push(`${unmapped.where}: ${key} entry "${entry}" dropped: ${mapped.message}.`);
    else if (!names.includes(mapped.name)) names.push(mapped.name);
  }
  return names;
}

function positiveInt(value: unknown, key: string, where: string, warnings: string[]): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  warnings.push(`${where}: "${key}" must be a positive integer; the default is used.`);
  return undefined;
}

/** `effort:` as kodo spells it; Claude Code's files use the same words (its `xhigh` is kodo's `max`). */
function effortOf(value: unknown, where: string, warnings: string[]): Effort | undefined {
  if (value === undefined) return undefined;
  if (value === 'xhigh') return 'max';
  if (isEffort(value)) return value;
  warnings.push(`${where}: "effort" must be one of ${EFFORTS.join(', ')}; ignored.`);
  return undefined;
}
