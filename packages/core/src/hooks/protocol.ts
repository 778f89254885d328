import { isRecord } from '../utils/is-record';
import type { HookDecision, HookOutput, HookSpecificOutput, HookTailCall, HookToolConfig } from './types';

/**
 * The command-hook answer protocol. The answer is the trimmed stdout, or the
 * trimmed stderr when stdout is empty. JSON (a JSON string is decoded a second time, for hooks
 * that print `JSON.stringify(JSON.stringify(x))`) is the output whatever the exit code. Plain
 * text goes by exit code: 0 allows and shows the text, 1 allows with a warning, anything else
 * blocks with the text as the reason (Claude Code's exit 2 convention, widened).
 */
export function parseHookOutput(stdout: string, stderr: string, exitCode: number | null): HookOutput {
  const text = stdout.trim() || stderr.trim();
  const json = parseJsonObject(text);
  if (json) return normalizeOutput(json);
  if (exitCode === 0) return text ? { decision: 'allow', systemMessage: text } : { decision: 'allow' };
  if (exitCode === 1) {
    return text ? { decision: 'allow', systemMessage: `Warning: ${text}` } : { decision: 'allow' };
  }
  return text ? { decision: 'deny', reason: text } : { decision: 'deny' };
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value === 'string') value = JSON.parse(value);
  } catch {
    return undefined;
  }
  return isRecord(value) ? value : undefined;
}

const DECISIONS: readonly HookDecision[] = ['allow', 'approve', 'deny', 'block', 'ask'];

/** Keeps the known fields with the right types; a wrongly typed field is ignored, not an error. */
export function normalizeOutput(raw: Record<string, unknown>): HookOutput {
  const output: HookOutput = {};
  if (typeof raw.continue === 'boolean') output.continue = raw.continue;
  if (typeof raw.stopReason === 'string') output.stopReason = raw.stopReason;
  if (typeof raw.suppressOutput === 'boolean') output.suppressOutput = raw.suppressOutput;
  if (typeof raw.systemMessage === 'string') output.systemMessage = raw.systemMessage;
  if (typeof raw.reason === 'string') output.reason = raw.reason;
  const decision = typeof raw.decision === 'string' ? raw.decision.toLowerCase() : undefined;
  if (decision && (DECISIONS as readonly string[]).includes(decision)) {
    output.decision = decision as HookDecision;
  }
  if (isRecord(raw.hookSpecificOutput)) {
    output.hookSpecificOutput = normalizeSpecific(raw.hookSpecificOutput);
  }
  return output;
}

function normalizeSpecific(raw: Record<string, unknown>): HookSpecificOutput {
  const out: HookSpecificOutput = {};
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'hookEventName':
      case 'additionalContext':
        if (typeof value === 'string') out[key] = value;
        break;
      case 'tool_input':
      case 'llm_request':
      case 'llm_response':
        if (isRecord(value)) out[key] = value;
        break;
      case 'clearContext':
        if (typeof value === 'boolean') out.clearContext = value;
        break;
      case 'toolConfig': {
        const config = normalizeToolConfig(value);
        if (config) out.toolConfig = config;
        break;
      }
      case 'tailToolCallRequest': {
        const tail = normalizeTailCall(value);
        if (tail) out.tailToolCallRequest = tail;
        break;
      }
      default:
        out[key] = value;
    }
  }
  return out;
}

function normalizeToolConfig(value: unknown): HookToolConfig | undefined {
  if (!isRecord(value)) return undefined;
  const config: HookToolConfig = {};
  const mode = typeof value.mode === 'string' ? value.mode.toUpperCase() : undefined;
  if (mode === 'AUTO' || mode === 'ANY' || mode === 'NONE') config.mode = mode;
  if (Array.isArray(value.allowedFunctionNames)) {
    config.allowedFunctionNames = value.allowedFunctionNames.filter(
      (name): name is string => typeof name === 'string',
    );
  }
  return config;
}

function normalizeTailCall(value: unknown): HookTailCall | undefined {
  if (!isRecord(value) || typeof value.name !== 'string' || value.name === '') return undefined;
  return { name: value.name, args: isRecord(value.args) ? value.args : {} };
}
