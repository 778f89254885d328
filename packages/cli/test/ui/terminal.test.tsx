import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupMembers, type OutputSink, type PseudoTerminalRun } from '@kodo/core/engine';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolCallBox } from '../../src/ui/components/tool-call-box';
import { TerminalScreensContext } from '../../src/ui/hooks/use-terminal-screens';
import { PtyTerminal, RedrawFolder, withInheritedFds } from '../../src/ui/terminal/pty-terminal';
import { TerminalScreens } from '../../src/ui/terminal/terminal-screens';
import type { ToolCallView } from '../../src/ui/types';
import { call, finish, KEYS, renderApp, text } from './helpers';

const until = (check: () => void, timeout = 5_000) => vi.waitFor(check, { timeout, interval: 20 });

/** Collects what the model would read. */
function collector(): OutputSink & { text: string } {
  const sink = {
    text: '',
    append(chunk: string) {
      sink.text += chunk;
      return true;
    },
    onDrain(listener: () => void) {
      queueMicrotask(listener);
    },
  };
  return sink;
}

function runOptions(
  command: string,
  overrides: Partial<PseudoTerminalRun> = {},
): PseudoTerminalRun & {
  sink: ReturnType<typeof collector>;
} {
  return {
    callId: 'call-1',
    launch: { file: 'bash', args: ['-c', command] },
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
    signal: new AbortController().signal,
    inactivityTimeoutMs: 0,
    maxOutputChars: 0,
    maxDurationMs: 0,
    ...overrides,
    sink: collector(),
  };
}

const screenText = (screens: TerminalScreens, id = 'call-1') =>
  screens.current().screens.get(id)?.lines.join('\n') ?? '';

describe('PtyTerminal (a real pseudo-terminal)', () => {
  it('runs a command that reads from its terminal; focused, the keys reach it', async () => {
    const screens = new TerminalScreens();
    const terminal = new PtyTerminal({ screens, size: () => ({ columns: 80, rows: 30 }) });
    const options = runOptions(`test -t 0 && echo is-a-tty; read -p 'Name? ' name; echo "hi $name"`);
    const running = terminal.run(options);
    await until(() => expect(screenText(screens)).toContain('Name?'));
    expect(screenText(screens)).toContain('is-a-tty');
    // Keys go nowhere until the command has the focus.
    screens.write('ignored');
    expect(screens.toggleFocus()).toBe(true);
    expect(screens.current().focused).toBe('call-1');
    screens.write('Ada\r');
    const result = await running;
    expect(result).toMatchObject({ exitCode: 0, signal: null, endedBy: 'exit' });
    expect(options.sink.text).toContain('hi Ada');
    expect(options.sink.text).not.toContain('ignored');
    // The model reads lines as from pipes, without the terminal's CR LF or escape sequences.
    expect(options.sink.text).not.toContain('\r');
    // Its screen is gone and the keys are back with the prompt.
    expect(screens.current().screens.size).toBe(0);
    expect(screens.current().focused).toBeUndefined();
  });

  it('draws the screen as a terminal would: a redrawn line shows its last state', async () => {
    const screens = new TerminalScreens();
    const terminal = new PtyTerminal({ screens, size: () => ({ columns: 80, rows: 30 }) });
    const options = runOptions(`printf 'loading 10%%\\rloading 100%%\\n\\033[31mred\\033[0m\\n'; sleep 0.5`);
    const running = terminal.run(options);
    await until(() => expect(screenText(screens)).toContain('red'));
    expect(screens.current().screens.get('call-1')?.lines.slice(0, 2)).toEqual(['loading 100%', 'red']);
    await running;
    expect(options.sink.text).toContain('red');
    expect(options.sink.text).not.toContain('\u001b');
  });

  it('stops the whole process group on abort', async () => {
    const screens = new TerminalScreens();
    const terminal = new PtyTerminal({ screens, size: () => ({ columns: 80, rows: 30 }) });
    const controller = new AbortController();
    const options = runOptions('sleep 30 & sleep 30; echo never', { signal: controller.signal });
    const running = terminal.run(options);
    await until(() => expect(screens.current().screens.size).toBe(1));
    controller.abort();
    const result = await running;
    expect(result?.endedBy).toBe('abort');
    expect(result?.backgroundPids).toEqual([]);
    // No live member of its group is left (zombies waiting for a reaper do not count).
    expect(groupMembers(result?.pid ?? 0)).toEqual([]);
  });

  it('ends a command that stays silent past the inactivity timeout', async () => {
    const screens = new TerminalScreens();
    const terminal = new PtyTerminal({ screens, size: () => ({ columns: 80, rows: 30 }) });
    const result = await terminal.run(runOptions('sleep 30', { inactivityTimeoutMs: 300 }));
    expect(result?.endedBy).toBe('timeout');
  });

  it('hands the sandbox its extra descriptors (the seccomp filter) as fd 3 through a reopening sh', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kodo-pty-fd-'));
    try {
      const file = join(dir, 'filter.bin');
      writeFileSync(file, 'filter-bytes');
      const fd = openSync(file, 'r');
      const launch = withInheritedFds({ file: 'bash', args: ['-c', 'cat <&3'], fds: [fd] });
      expect('error' in launch).toBe(false);
      const screens = new TerminalScreens();
      const terminal = new PtyTerminal({ screens, size: () => ({ columns: 80, rows: 30 }) });
      const options = runOptions('', {});
      const result = await terminal.run({
        ...options,
        launch: { file: 'bash', args: ['-c', 'cat <&3'], fds: [openSync(file, 'r')] },
      });
      closeSync(fd);
      expect(result?.exitCode).toBe(0);
      expect(options.sink.text).toContain('filter-bytes');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run when a descriptor cannot be reopened (fails closed, no unsandboxed run)', () => {
    const launch = withInheritedFds({ file: 'bwrap', args: ['--seccomp', '3'], fds: [987654] });
    expect(launch).toEqual({ error: expect.stringContaining('Command not run') });
  });

  it('answers undefined when the libraries cannot be loaded, so the shell falls back to pipes', async () => {
    const reasons: string[] = [];
    const terminal = new PtyTerminal({
      screens: new TerminalScreens(),
      size: () => ({ columns: 80, rows: 30 }),
      load: async () => ({ error: 'no prebuilt binary for this platform' }),
      onUnavailable: (reason) => reasons.push(reason),
    });
    expect(await terminal.run(runOptions('echo hi'))).toBeUndefined();
    expect(await terminal.run(runOptions('echo hi'))).toBeUndefined();
    expect(reasons).toEqual(['no prebuilt binary for this platform']);
  });
});

const runningCall: ToolCallView = {
  callId: 'call-9',
  name: 'run_shell_command',
  displayName: 'Shell',
  description: 'python3 -i',
  status: 'executing',
  liveOutput: 'raw output that the screen replaces',
};

describe('ToolCallBox with a terminal screen', () => {
  it('shows the emulated screen and the focus key; focused, the cursor and how to leave', async () => {
    const screens = new TerminalScreens();
    screens.add('call-9', { write: () => undefined, resize: () => undefined });
    screens.setScreen('call-9', {
      lines: ['Python 3.12', '>>> 1+1', '2', '>>> '],
      cursor: { row: 3, column: 4 },
    });
    const shown = render(
      <TerminalScreensContext.Provider value={screens}>
        <ToolCallBox call={runningCall} width={60} maxBodyLines={8} />
      </TerminalScreensContext.Provider>,
    );
    try {
      expect(shown.lastFrame()).toContain('>>> 1+1');
      expect(shown.lastFrame()).toContain('ctrl+f to type into the command');
      expect(shown.lastFrame()).not.toContain('raw output');
      screens.toggleFocus();
      await until(() => expect(shown.lastFrame()).toContain('typing into the command'));
      expect(shown.lastFrame()).toContain('ctrl+f returns to the prompt');
    } finally {
      shown.unmount();
    }
  });

  it('without a screen (pipes), shows the live output as before', () => {
    const shown = render(<ToolCallBox call={runningCall} width={60} maxBodyLines={8} />);
    expect(shown.lastFrame()).toContain('raw output that the screen replaces');
    shown.unmount();
  });
});

describe('App with shell commands in a terminal', () => {
  let app: ReturnType<typeof renderApp> | undefined;
  afterEach(() => {
    app?.cleanup();
    app = undefined;
  });

  it('Ctrl+F gives the keys to the running command, Ctrl+F again gives them back to the prompt', async () => {
    const ui = renderApp({
      pty: true,
      approvalMode: 'yolo',
      turns: [
        {
          chunks: [call('run_shell_command', { command: `read -p 'Name? ' n; echo "hello, $n"` }), finish()],
        },
        { chunks: [text('Greeted.'), finish()] },
      ],
    });
    app = ui;
    await ui.type('greet me');
    await ui.press(KEYS.enter);
    // The first shell command waits for the policy's parser to load (seconds on a busy machine).
    await until(() => expect(ui.frame()).toContain('ctrl+f to type into the command'), 15_000);
    await until(() => expect(ui.frame()).toMatch(/│ Name\?/));
    await ui.press(KEYS.ctrlF);
    await until(() => expect(ui.frame()).toContain('typing into the command'));
    await ui.press(KEYS.ctrlF);
    await until(() => expect(ui.frame()).toContain('ctrl+f to type into the command'));
    // Not focused: typing goes to the prompt (queued), not to the command.
    await ui.type('later');
    await until(() => expect(ui.frame()).toContain('> later'));
    await ui.press(KEYS.ctrlF);
    await until(() => expect(ui.frame()).toContain('typing into the command'));
    await ui.type('Ada');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Greeted.'));
    expect(ui.frame()).toContain('hello, Ada');
    expect(ui.frame()).toContain('> later');
    expect(ui.generator.lastUserText()).toContain('hello, Ada');
  });
});

describe('!command in a terminal', () => {
  let app: ReturnType<typeof renderApp> | undefined;
  afterEach(() => {
    app?.cleanup();
    app = undefined;
  });

  it("runs the person's own command in a terminal they can type into", async () => {
    const ui = renderApp({ pty: true, approvalMode: 'yolo' });
    app = ui;
    await ui.type(`!read -p 'Color? ' c; echo "picked $c"`);
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('ctrl+f to type into the command'), 15_000);
    await until(() => expect(ui.frame()).toMatch(/│ Color\?/));
    await ui.press(KEYS.ctrlF);
    await until(() => expect(ui.frame()).toContain('typing into the command'));
    await ui.type('green');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('picked green'));
    await until(() => expect(ui.frame()).toMatch(/✔ Shell .*· done/));
  });
});

describe('RedrawFolder (what the model reads of a terminal)', () => {
  it('turns CR LF into LF and keeps only the last drawing of a redrawn line', () => {
    const folder = new RedrawFolder();
    expect(folder.push('one\r\ntwo\r\n')).toBe('one\ntwo\n');
    expect(folder.push('progress 10%\rprogress 5')).toBe('');
    expect(folder.push('0%\rprogress 100%\r\ndone')).toBe('progress 100%\n');
    expect(folder.end()).toBe('done');
    // A shorter frame leaves the end of the longer one, as on a screen.
    expect(folder.push('abcdef\rXY\n')).toBe('XYcdef\n');
  });

  it('passes a line that never ends on in pieces', () => {
    const folder = new RedrawFolder();
    const long = 'x'.repeat(70 * 1024);
    expect(folder.push(long)).toHaveLength(long.length);
    expect(folder.end()).toBe('');
  });
});
