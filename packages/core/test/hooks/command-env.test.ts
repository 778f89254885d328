import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  hookEnvironment,
  hookVariables,
  shellQuote,
  substituteHookVariables,
} from '../../src/hooks/command-env';

const vars = hookVariables({ cwd: "/tmp/my proj/it's", sessionId: 's-1', plansDir: '/p/plans' });
/** What bash prints for `printf '%s|' <words>` after substitution, with the variables unset. */
const words = (command: string) =>
  execFileSync('bash', ['-c', `printf '%s|' ${substituteHookVariables(command, vars)}`], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });

describe('hook variables', () => {
  it("sets Gemini CLI's, Claude Code's and kodo's names", () => {
    expect(vars).toEqual({
      GEMINI_PROJECT_DIR: "/tmp/my proj/it's",
      GEMINI_CWD: "/tmp/my proj/it's",
      GEMINI_SESSION_ID: 's-1',
      CLAUDE_PROJECT_DIR: "/tmp/my proj/it's",
      KODO_PROJECT_DIR: "/tmp/my proj/it's",
      KODO_CWD: "/tmp/my proj/it's",
      KODO_SESSION_ID: 's-1',
      GEMINI_PLANS_DIR: '/p/plans',
      KODO_PLANS_DIR: '/p/plans',
    });
    expect(hookVariables({ cwd: '/a', sessionId: 's' })).not.toHaveProperty('GEMINI_PLANS_DIR');
  });

  it('builds the environment without secrets, then the variables, then the hook env', () => {
    const env = hookEnvironment(
      { PATH: '/bin', GEMINI_API_KEY: 'secret', GITHUB_TOKEN: 't', KODO_CWD: 'stale' },
      { KODO_CWD: '/w' },
      { MY_VAR: '1', KODO_CWD: '/override' },
    );
    expect(env).toEqual({ PATH: '/bin', KODO_CWD: '/override', MY_VAR: '1' });
  });
});

describe('substituteHookVariables', () => {
  it('quotes a bare value that needs it', () => {
    expect(words('$KODO_PROJECT_DIR/hook.sh')).toBe("/tmp/my proj/it's/hook.sh|");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell variable syntax, on purpose
    expect(words('${GEMINI_CWD}/x ${KODO_SESSION_ID}')).toBe("/tmp/my proj/it's/x|s-1|");
  });

  it('escapes for double and single quotes', () => {
    expect(words('"$CLAUDE_PROJECT_DIR/a b"')).toBe("/tmp/my proj/it's/a b|");
    expect(words("'$GEMINI_PROJECT_DIR/z'")).toBe("/tmp/my proj/it's/z|");
    const nasty = hookVariables({ cwd: '/a "b" $c `d` \\e', sessionId: 's' });
    const out = execFileSync('bash', ['-c', `printf '%s' ${substituteHookVariables('"$KODO_CWD"', nasty)}`], {
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    });
    expect(out).toBe('/a "b" $c `d` \\e');
  });

  it('leaves other variables and escaped dollars alone', () => {
    expect(substituteHookVariables('echo $HOME \\$KODO_CWD $KODO_CWDX', vars)).toBe(
      'echo $HOME \\$KODO_CWD $KODO_CWDX',
    );
    expect(substituteHookVariables('echo $KODO_SESSION_ID', vars)).toBe('echo s-1');
  });

  it('shell-quotes only when needed', () => {
    expect(shellQuote('/usr/bin/a-b_c.d')).toBe('/usr/bin/a-b_c.d');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });
});
