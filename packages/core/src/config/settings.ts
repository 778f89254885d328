import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiHome, kodoHome } from './paths';

/**
 * The settings kodo reads so far. Unknown keys are ignored, never an error: a settings file
 * written for Gemini CLI (or a newer kodo) must not stop kodo from starting.
 */
export interface Settings {
  model?: { name?: string; maxSessionTurns?: number };
  general?: { defaultApprovalMode?: string };
  output?: { format?: string };
  tools?: { truncateToolOutputThreshold?: number };
}

export interface LoadedSettings {
  merged: Settings;
  /** Files that were read, in precedence order (later wins). */
  sources: string[];
}

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/**
 * User then project settings; later wins, objects merge deeply. For each scope kodo's own file
 * is used, or Gemini CLI's `.gemini/settings.json` when kodo's is absent.
 */
export function loadSettings(options: { cwd: string; env?: NodeJS.ProcessEnv }): LoadedSettings {
  const env = options.env ?? process.env;
  const scopes = [
    [join(kodoHome(env), 'settings.json'), join(geminiHome(env), 'settings.json')],
    [join(options.cwd, '.kodo', 'settings.json'), join(options.cwd, '.gemini', 'settings.json')],
  ];
  let merged: Record<string, unknown> = {};
  const sources: string[] = [];
  for (const candidates of scopes) {
    for (const path of candidates) {
      const value = readJsonFile(path);
      if (value === undefined) continue;
      merged = deepMerge(merged, value);
      sources.push(path);
      break;
    }
  }
  return { merged: merged as Settings, sources };
}

function readJsonFile(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(stripJsonComments(text));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new Error('the top level must be an object');
    }
    return value as Record<string, unknown>;
  } catch (error) {
    throw new SettingsError(`Invalid settings file ${path}: ${(error as Error).message}`);
  }
}

function deepMerge(
  base: Record<string, unknown>,
  override: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const existing = out[key];
    if (isPlainObject(existing) && isPlainObject(value)) out[key] = deepMerge(existing, value);
    else out[key] = value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Removes `//` and `/* *\/` comments and trailing commas outside strings (JSON with comments). */
export function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    const next = text[i + 1];
    if (inString) {
      out += char;
      if (char === '\\') {
        out += next ?? '';
        i += 1;
      } else if (char === '"') {
        inString = false;
      }
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
    } else if (char === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      out += '\n';
    } else if (char === '/' && next === '*') {
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) i += 1;
      i += 1;
    } else {
      out += char;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}
