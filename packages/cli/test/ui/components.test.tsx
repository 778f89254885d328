import { Box } from 'ink';
import { render } from 'ink-testing-library';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DiffView, isUnifiedDiff, parseUnifiedDiff } from '../../src/ui/components/diff-view';
import { Footer, type FooterInfo } from '../../src/ui/components/footer';
import { ThoughtView } from '../../src/ui/components/thought-view';
import { ToolCallBox } from '../../src/ui/components/tool-call-box';
import { HighlighterContext } from '../../src/ui/hooks/use-highlighter';
import { ThemeContext } from '../../src/ui/hooks/use-theme';
import { loadHighlighter } from '../../src/ui/markdown/highlight';
import { HighlighterLoader } from '../../src/ui/markdown/highlighter-loader';
import { Markdown } from '../../src/ui/markdown/markdown';
import { resolveTheme } from '../../src/ui/theme';

// Colours are what some of these tests check; chalk decides its colour level when imported.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

const frameOf = (node: ReactNode, env: NodeJS.ProcessEnv = {}, loader?: HighlighterLoader) => {
  const { lastFrame, unmount } = render(
    <ThemeContext.Provider value={resolveTheme('dark', env)}>
      <HighlighterContext.Provider value={loader}>{node}</HighlighterContext.Provider>
    </ThemeContext.Provider>,
  );
  const frame = lastFrame() ?? '';
  unmount();
  return frame;
};
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

const DIFF = [
  '===================================================================',
  '--- a.ts\tCurrent',
  '+++ a.ts\tProposed',
  '@@ -1,3 +1,3 @@',
  ' keep',
  '-old line',
  '+new line',
  ' tail',
  '',
].join('\n');

describe('Markdown', () => {
  it('renders headings, emphasis, inline code, links, lists, quotes and rules without markers', () => {
    const frame = plain(
      frameOf(
        <Markdown
          width={100}
          text={[
            '# Title',
            '',
            'Some **bold**, *italic* and `code` with a [link](https://example.com).',
            '',
            '- one',
            '- two',
            '  1. nested',
            '',
            '- [x] done task',
            '',
            '> quoted',
            '',
            '---',
          ].join('\n')}
        />,
      ),
    );
    expect(frame).toContain('Title');
    expect(frame).not.toContain('# Title');
    expect(frame).toContain('Some bold, italic and code with a link (https://example.com).');
    expect(frame).toMatch(/• one\n\n?• two\n\n?\s+1\. nested/);
    expect(frame).toContain('☑ done task');
    expect(frame).toMatch(/┃ quoted/);
    expect(frame).toContain('───');
  });

  it('lays out tables as a grid, or as blocks when the terminal is narrow', () => {
    const table = '| Name | Size |\n| --- | ---: |\n| app.ts | 12 |\n| a-much-longer-name.ts | 3 |';
    const wide = plain(frameOf(<Markdown width={60} text={table} />));
    expect(wide).toContain('Name                  │ Size');
    expect(wide).toContain('app.ts                │   12');
    const narrow = plain(frameOf(<Markdown width={20} text={table} />));
    expect(narrow).toContain('Name: app.ts');
    expect(narrow).toContain('Size: 3');
    expect(narrow).not.toContain('│');
  });

  it('highlights code blocks once the highlighter has loaded', async () => {
    const loader = new HighlighterLoader(loadHighlighter);
    await loader.start();
    const code = '```js\nconst answer = 42; // why\n```';
    const colored = frameOf(<Markdown width={60} text={code} />, {}, loader);
    expect(plain(colored)).toContain('const answer = 42; // why');
    const uncolored = frameOf(<Markdown width={60} text={code} />, {}, undefined);
    expect(plain(uncolored)).toBe(plain(colored));
    // Keyword, number and comment each get their own colour; unhighlighted code has one.
    const colours = (frame: string) => new Set(frame.match(/\u001b\[[0-9;]*m/g)).size;
    expect(colours(colored)).toBeGreaterThan(colours(uncolored));
  });

  it('strips escape sequences from model text', () => {
    const frame = frameOf(<Markdown width={60} text={'evil \u001b]0;title\u0007\u001b[2Jtext'} />);
    expect(frame).toContain('evil text');
    expect(frame).not.toContain('\u001b]0;');
    expect(frame).not.toContain('\u001b[2J');
  });
});

describe('tool calls and diffs', () => {
  it('parses unified diffs with line numbers', () => {
    expect(isUnifiedDiff(DIFF)).toBe(true);
    expect(isUnifiedDiff('plain output')).toBe(false);
    expect(parseUnifiedDiff(DIFF)).toEqual([
      { kind: 'context', number: 1, text: 'keep' },
      { kind: 'remove', number: 2, text: 'old line' },
      { kind: 'add', number: 2, text: 'new line' },
      { kind: 'context', number: 3, text: 'tail' },
    ]);
    const frame = frameOf(<DiffView diff={DIFF} maxLines={10} />);
    expect(plain(frame)).toMatch(/2 - old line\n2 \+ new line/);
    expect(frame).toContain('\u001b[32m');
  });

  it('names each file of a diff of several files, and counts hunk lines that look like headers', () => {
    const several = [
      '--- a.txt\tCurrent',
      '+++ a.txt\tProposed',
      '@@ -1,2 +1,2 @@',
      '--- not a header',
      '+++ nor this',
      ' tail',
      '--- old.txt\tCurrent',
      '+++ new.txt\tProposed',
      '@@ -1 +1 @@',
      '-x',
      '+y',
      '',
    ].join('\n');
    expect(parseUnifiedDiff(several)).toEqual([
      { kind: 'file', number: undefined, text: 'a.txt' },
      { kind: 'remove', number: 1, text: '-- not a header' },
      { kind: 'add', number: 1, text: '++ nor this' },
      { kind: 'context', number: 2, text: 'tail' },
      { kind: 'file', number: undefined, text: 'old.txt → new.txt' },
      { kind: 'remove', number: 1, text: 'x' },
      { kind: 'add', number: 1, text: 'y' },
    ]);
    expect(plain(frameOf(<DiffView diff={several} maxLines={20} />))).toMatch(
      /old\.txt → new\.txt\n\s*1 - x\n\s*1 \+ y/,
    );
  });

  it('shows a running subagent as its current step, every step when expanded', () => {
    const call = {
      callId: 'c',
      name: 'invoke_agent',
      displayName: 'Invoke Subagent',
      description: "Delegating to agent 'codebase_investigator'",
      status: 'executing' as const,
      subagent: {
        agent: 'codebase_investigator',
        steps: ['ReadFile a.ts', 'SearchText greeting', 'writing its answer…'],
      },
    };
    const collapsed = plain(frameOf(<ToolCallBox width={70} maxBodyLines={5} call={call} />));
    expect(collapsed).toContain('↳ writing its answer…');
    expect(collapsed).not.toContain('ReadFile a.ts');
    expect(collapsed).toContain('2 earlier step(s) · ctrl+t to expand');
    const expanded = plain(frameOf(<ToolCallBox width={70} maxBodyLines={5} call={call} expanded />));
    expect(expanded).toContain('↳ ReadFile a.ts');
    expect(expanded).toContain('↳ SearchText greeting');
    expect(expanded).not.toContain('ctrl+t to expand');
  });

  it('shows status, live output tail and the result of a call', () => {
    const running = plain(
      frameOf(
        <ToolCallBox
          width={60}
          maxBodyLines={3}
          call={{
            callId: 'c',
            name: 'run_shell_command',
            displayName: 'Shell',
            description: 'npm test',
            status: 'executing',
            liveOutput: Array.from({ length: 20 }, (_, i) => `out ${i}`).join('\n'),
          }}
        />,
      ),
    );
    expect(running).toMatch(/▶ Shell npm test\s+· running/);
    expect(running).toContain('out 19');
    expect(running).not.toContain('out 10');
    const done = plain(
      frameOf(
        <ToolCallBox
          width={60}
          maxBodyLines={10}
          call={{
            callId: 'c',
            name: 'write_file',
            displayName: 'WriteFile',
            description: 'a.ts',
            status: 'success',
            resultDisplay: DIFF,
          }}
        />,
      ),
    );
    expect(done).toMatch(/✔ WriteFile a\.ts\s+· done/);
    expect(done).toContain('+ new line');
    const failed = plain(
      frameOf(
        <ToolCallBox
          width={60}
          maxBodyLines={10}
          call={{
            callId: 'c',
            name: 'read_file',
            displayName: 'ReadFile',
            description: 'x',
            status: 'error',
            errorMessage: 'File not found: x',
          }}
        />,
      ),
    );
    expect(failed).toMatch(/✖ ReadFile x\s+· failed/);
    expect(failed).toContain('File not found: x');
  });

  it('collapses thoughts to their subject unless expanded', () => {
    const text = '**Planning the fix**\n\nFirst I will read the parser.';
    expect(plain(frameOf(<ThoughtView text={text} expanded={false} />))).toContain(
      '∴ Planning the fix (ctrl+t to expand)',
    );
    const expanded = plain(frameOf(<ThoughtView text={text} expanded />));
    expect(expanded).toContain('First I will read the parser.');
  });
});

describe('layout', () => {
  const info: FooterInfo = {
    model: 'gemini-2.5-pro',
    contextUsed: 0.123,
    inputTokens: 12_345,
    outputTokens: 678,
    cost: 0.0123,
    cwd: '/home/someone/projects/deeply/nested/project',
    branch: 'main',
    approvalMode: 'auto_edit',
    sandbox: undefined,
  };

  it('shows everything the footer promises', () => {
    const frame = plain(frameOf(<Footer info={info} width={140} />));
    expect(frame).toContain('gemini-2.5-pro · context 12.3% · ↑12.3k ↓678 · $0.012');
    expect(frame).toContain('(main) · auto_edit · no sandbox');
  });

  it('keeps every line within 40 columns', () => {
    const frame = plain(
      frameOf(
        <Box flexDirection="column" width={40}>
          <Footer info={info} width={40} />
          <ToolCallBox
            width={40}
            maxBodyLines={5}
            call={{
              callId: 'c',
              name: 'run_shell_command',
              displayName: 'Shell',
              description: 'a very long command line that cannot possibly fit into forty columns',
              status: 'success',
              resultDisplay: 'ok',
            }}
          />
          <Markdown
            width={40}
            text={'A paragraph long enough to wrap several times at forty columns wide.'}
          />
        </Box>,
      ),
    );
    for (const line of frame.split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
    expect(frame).toContain('auto_edit');
  });

  it('uses no colours with NO_COLOR', () => {
    const frame = frameOf(<DiffView diff={DIFF} maxLines={10} />, { NO_COLOR: '1' });
    expect(frame).not.toMatch(/\u001b\[3[0-9]m/);
    expect(plain(frame)).toContain('+ new line');
  });
});
