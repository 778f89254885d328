import { sanitizeEnv } from '../utils/env';
import { substituteShellPlaceholders } from '../utils/shell-placeholders';

export { shellQuote } from '../utils/shell-placeholders';

/** Facts about the session every hook process gets as variables. */
export interface HookSessionFacts {
  cwd: string;
  sessionId: string;
  /** Where plan-mode plans go; the variable is left unset when unknown. */
  plansDir?: string;
}

/**
 * The variables kodo sets for hooks: Gemini CLI's and Claude Code's names, so their hooks run
 * unchanged, and kodo's own. All of them are also substituted in the `command` text.
 */
export function hookVariables(facts: HookSessionFacts): Record<string, string> {
  const vars: Record<string, string> = {
    GEMINI_PROJECT_DIR: facts.cwd,
    GEMINI_CWD: facts.cwd,
    GEMINI_SESSION_ID: facts.sessionId,
    CLAUDE_PROJECT_DIR: facts.cwd,
    KODO_PROJECT_DIR: facts.cwd,
    KODO_CWD: facts.cwd,
    KODO_SESSION_ID: facts.sessionId,
  };
  if (facts.plansDir !== undefined) {
    vars.GEMINI_PLANS_DIR = facts.plansDir;
    vars.KODO_PLANS_DIR = facts.plansDir;
  }
  return vars;
}

/**
 * The environment of a hook process: the same secret-free environment the shell tool gets, the
 * session variables, then the hook's own `env` from settings (the person wrote those on purpose).
 */
export function hookEnvironment(
  base: NodeJS.ProcessEnv,
  vars: Record<string, string>,
  own: Record<string, string>,
): NodeJS.ProcessEnv {
  return { ...sanitizeEnv(base), ...vars, ...own };
}

/**
 * Replaces `$NAME` and `${NAME}` of the session variables in a hook command, quoted for where
 * they stand (utils/shell-placeholders.ts): bare words are shell-quoted when needed, inside
 * double quotes `\ " $ \`` are escaped, inside single quotes a `'` closes and reopens the quote.
 * So a project path with spaces or quotes works in `node $KODO_PROJECT_DIR/h.js` and in
 * `node "$KODO_PROJECT_DIR/h.js"`. Where a value cannot be quoted reliably (backquotes, `${…}`,
 * a comment…) the reference is left as written: the hook's environment has the same variable.
 * Other variables are left for the shell to expand.
 */
export function substituteHookVariables(command: string, vars: Record<string, string>): string {
  return substituteShellPlaceholders(command, {
    find(text, index) {
      if (text[index] !== '$') return undefined;
      const reference = variableAt(text, index);
      if (!reference || !Object.hasOwn(vars, reference.name)) return undefined;
      return { end: reference.end, value: vars[reference.name]! };
    },
    unquotable: (_context, placeholder) => placeholder,
  });
}

function variableAt(text: string, dollar: number): { name: string; end: number } | undefined {
  const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(text.slice(dollar));
  if (braced) return { name: braced[1]!, end: dollar + braced[0].length };
  const bare = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(dollar));
  if (bare) return { name: bare[1]!, end: dollar + bare[0].length };
  return undefined;
}
