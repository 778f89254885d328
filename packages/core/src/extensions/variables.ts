import { sep } from 'node:path';

export interface VariableContext {
  /** The extension's effective folder (a linked extension's source). */
  extensionPath: string;
  workspacePath: string;
  /** Setting values (the extension's `.env`), then the process environment, for `$VAR`. */
  values?: Readonly<Record<string, string | undefined>>;
}

/**
 * Substitutes the variables extensions use, in every string of a JSON value: `${extensionPath}`
 * (and Claude Code's `${CLAUDE_PLUGIN_ROOT}`), `${workspacePath}`, `${/}` and `${pathSeparator}`;
 * and, when `values` is given, `$VAR`, `${VAR}` and `${VAR:-default}`. Unknown `${x}` stays.
 */
export function substituteVariables<T>(value: T, context: VariableContext): T {
  return walk(value, context) as T;
}

function walk(value: unknown, context: VariableContext): unknown {
  if (typeof value === 'string') return substituteString(value, context);
  if (Array.isArray(value)) return value.map((entry) => walk(entry, context));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, walk(entry, context)]));
  }
  return value;
}

/**
 * One pass over the text, so what a substitution puts in is never read again: a folder named
 * `$HOME` stays a folder name, and `$&` or `$1` in a path is not a replacement pattern.
 */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*|\/)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

function substituteString(text: string, context: VariableContext): string {
  return text.replace(VARIABLE, (match, braced: string | undefined, fallback: string | undefined, bare) => {
    if (braced !== undefined && fallback === undefined) {
      const fixed = fixedVariable(braced, context);
      if (fixed !== undefined) return fixed;
    }
    const values = context.values;
    const name = (braced ?? bare) as string;
    if (!values || name === '/') return match;
    const found = values[name];
    if (found !== undefined && found !== '') return found;
    return fallback ?? match;
  });
}

function fixedVariable(name: string, context: VariableContext): string | undefined {
  switch (name) {
    case 'extensionPath':
    case 'CLAUDE_PLUGIN_ROOT':
      return context.extensionPath;
    case 'workspacePath':
      return context.workspacePath;
    case '/':
    case 'pathSeparator':
      return sep;
    default:
      return undefined;
  }
}
