import { render } from 'ink-testing-library';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ThoughtView } from '../../src/ui/components/thought-view';
import { ToolCallBox } from '../../src/ui/components/tool-call-box';
import { ThemeContext } from '../../src/ui/hooks/use-theme';
import { Markdown } from '../../src/ui/markdown/markdown';
import { sanitizeForTerminal } from '../../src/ui/sanitize';
import { resolveTheme } from '../../src/ui/theme';

/**
 * Issue N, "Terminal output passes C1 control characters": the 8-bit forms of CSI (U+009B) and
 * OSC (U+009D), and the other C1 controls (U+0080–U+009F), reached the terminal from model and
 * tool output; some terminals act on them as on ESC [ and ESC ]. They are stripped as the C0
 * ones are, on every path that prints model or tool text.
 */

const frameOf = (node: ReactNode) => {
  const { lastFrame, unmount } = render(
    <ThemeContext.Provider value={resolveTheme('dark', { NO_COLOR: '1' })}>{node}</ThemeContext.Provider>,
  );
  const frame = lastFrame() ?? '';
  unmount();
  return frame;
};

/** Every C1 control, and the escape character (a frame without colours has none of its own). */
const CONTROLS = /[\u0080-\u009f\u001b\u0007]/;

/** Attacks in their 8-bit forms: clear screen, retitle, hyperlink, a DCS string, bare C1s. */
const ATTACKS = [
  '\u009b2J',
  '\u009b31;1m',
  '\u009d0;pwned\u0007',
  '\u009d0;pwned\u009c',
  '\u009d8;;https://evil.example\u001b\\',
  '\u0090qdcs payload\u009c',
  '\u0085\u0084\u008d\u0096\u0098sos\u009c\u009f',
  '\u001b[38:2:255:0:0m',
  '\u001b]0;title with spaces\u0007',
];

describe('C1 controls never reach the terminal from the UI', () => {
  it.each(ATTACKS.map((attack) => [JSON.stringify(attack), attack]))(
    'model text with %s',
    (_name, attack) => {
      const frame = frameOf(<Markdown width={60} text={`before ${attack}after`} />);
      expect(frame).not.toMatch(CONTROLS);
      expect(frame).toContain('before');
      expect(frame).toContain('after');
      expect(frame).not.toContain('pwned');
    },
  );

  it('tool output, a tool error and thoughts', () => {
    const payload = ATTACKS.join('');
    const done = frameOf(
      <ToolCallBox
        width={80}
        maxBodyLines={10}
        call={{
          callId: 'c',
          name: 'run_shell_command',
          displayName: 'Shell',
          description: `echo ${payload}`,
          status: 'success',
          resultDisplay: `out ${payload}end`,
        }}
      />,
    );
    expect(done).not.toMatch(CONTROLS);
    expect(done).toContain('end');
    const failed = frameOf(
      <ToolCallBox
        width={80}
        maxBodyLines={10}
        call={{
          callId: 'c',
          name: 'read_file',
          displayName: 'ReadFile',
          description: 'x',
          status: 'error',
          errorMessage: `File not found: ${payload}x`,
        }}
      />,
    );
    expect(failed).not.toMatch(CONTROLS);
    const thought = frameOf(<ThoughtView text={`**Plan** ${payload} then act`} expanded />);
    expect(thought).not.toMatch(CONTROLS);
  });

  it('keeps newlines and tabs, resolves carriage returns, drops the C0 and C1 controls', () => {
    expect(sanitizeForTerminal('a\tb\r\nline 1\u0085\nprogress 10%\rprogress 99%\n\u009b2Jdone\u0007')).toBe(
      'a    b\nline 1\nprogress 99%\ndone',
    );
    // Non-control characters in the same range of code points stay (Latin-1 letters, NBSP).
    expect(sanitizeForTerminal('caf\u00e9\u00a0ok')).toBe('caf\u00e9\u00a0ok');
  });
});
