import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstLine, StatusLineRunner, statusLineSetting } from '../../src/ui/status/status-command';
import { finish, renderApp, text } from './helpers';

/**
 * Issue R: a command-backed status line (settings `statusLine`, as Claude Code): the session's
 * state as JSON on stdin, the first line of stdout above the footer; throttled, with a timeout,
 * never in the way of typing; a failure reported once.
 */

let dir: string;
const runners: StatusLineRunner[] = [];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-status-')));
});
afterEach(() => {
  for (const runner of runners.splice(0)) runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});
const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

function runner(command: string, options: { timeoutMs?: number; minIntervalMs?: number } = {}) {
  const made = new StatusLineRunner({ command, cwd: dir, env: { PATH: process.env.PATH ?? '' }, ...options });
  runners.push(made);
  return made;
}

describe('statusLine setting', () => {
  it('reads Claude Code’s top-level key and Qwen Code’s ui key; anything else is no status line', () => {
    expect(statusLineSetting({ statusLine: { type: 'command', command: '~/s.sh', padding: 2 } })).toEqual({
      type: 'command',
      command: '~/s.sh',
      padding: 2,
    });
    expect(statusLineSetting({ ui: { statusLine: { type: 'command', command: 'echo hi' } } })?.command).toBe(
      'echo hi',
    );
    expect(statusLineSetting({ statusLine: { type: 'static', command: 'x' } })).toBeUndefined();
    expect(statusLineSetting({})).toBeUndefined();
  });

  it('keeps colours of the first line and drops other control sequences', () => {
    expect(firstLine('\u001b[32mok\u001b[0m \u001b]0;title\u0007x\nsecond')).toBe('\u001b[32mok\u001b[0m x');
    expect(firstLine('\u001b[0m\n')).toBe('');
  });
});

describe('the status line command', () => {
  it('gets the state as JSON on stdin and shows the first line it prints', async () => {
    const status = runner(
      `cat > "${dir}/input.json"; echo "model: $(sed 's/.*"id":"\\([^"]*\\)".*/\\1/' "${dir}/input.json")"; echo ignored`,
    );
    status.update({
      hook_event_name: 'Status',
      model: { id: 'gemini-2.5-pro', display_name: 'gemini-2.5-pro' },
    });
    await until(() => expect(status.current()).toBe('model: gemini-2.5-pro'));
    expect(JSON.parse(readFileSync(join(dir, 'input.json'), 'utf8')).hook_event_name).toBe('Status');
  });

  it('runs without the session’s credentials in its environment', async () => {
    const status = new StatusLineRunner({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
      command: 'echo "key=${GEMINI_API_KEY:-none} path=${PATH:+set}"',
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', GEMINI_API_KEY: 'sk-secret' },
      minIntervalMs: 0,
    });
    runners.push(status);
    status.update({});
    await until(() => expect(status.current()).toBe('key=none path=set'));
  });

  it('runs at most once per interval, with the latest state', async () => {
    const status = runner('cat | sed "s/.*\\"n\\":\\([0-9]*\\).*/n=\\1/"', { minIntervalMs: 400 });
    for (let n = 1; n <= 30; n += 1) status.update({ n });
    await until(() => expect(status.current()).toBe('n=30'));
    // The first update runs, the other 29 collapse into one run with the last state.
    expect(status.runs).toBeLessThanOrEqual(2);
  });

  it('kills a command that takes too long and reports the first failure only', async () => {
    const failures: string[] = [];
    const status = runner('sleep 5', { timeoutMs: 200, minIntervalMs: 0 });
    status.onFirstFailure((message) => failures.push(message));
    status.update({ n: 1 });
    await until(() => expect(failures).toHaveLength(1));
    expect(failures[0]).toBe(
      'Status line command failed: no answer within 200 ms (shown once; the line stays empty while it fails).',
    );
    status.update({ n: 2 });
    await until(() => expect(status.runs).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(failures).toHaveLength(1);
    expect(status.current()).toBe('');
  });

  it('a failing command blanks the line, naming its exit and what it said', async () => {
    const failures: string[] = [];
    const status = runner('echo "no jq here" >&2; exit 3', { minIntervalMs: 0 });
    status.onFirstFailure((message) => failures.push(message));
    status.update({});
    await until(() =>
      expect(failures).toEqual([
        'Status line command failed: exit 3: no jq here (shown once; the line stays empty while it fails).',
      ]),
    );
  });
});

describe('the status line in the UI', () => {
  it('shows the line above the footer and runs again after a turn with the new usage', async () => {
    const state = join(dir, 'state.json');
    const status = runner(
      `cat > "${state}"; grep -o '"total_input_tokens":[0-9]*' "${state}" | sed 's/.*:/in=/'`,
      {
        minIntervalMs: 0,
      },
    );
    const ui = renderApp({
      turns: [{ chunks: [text('Done.'), finish(1234, 5)] }],
      appProps: { statusLine: { runner: status, padding: 1 } },
    });
    try {
      await until(() => expect(ui.frame()).toContain(' in=0'));
      await ui.type('hello');
      await ui.press('\r');
      await until(() => expect(ui.frame()).toContain('Done.'));
      await until(() => expect(ui.frame()).toContain(' in=1234'));
      const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
      expect(state.session_id).toBe(ui.sessions[0]!.id);
      expect(state.model).toEqual({ id: 'gemini-2.5-pro', display_name: 'gemini-2.5-pro' });
      expect(state.workspace.current_dir).toBe(ui.workspace);
      expect(state.context_window.current_usage).toEqual({ input_tokens: 1234, output_tokens: 5 });
      expect(state.approval_mode).toBe('default');
      const lines = ui.frame().split('\n');
      const statusRow = lines.findIndex((line) => line.includes('in=1234'));
      expect(lines[statusRow + 1]).toContain('gemini-2.5-pro · context');
    } finally {
      ui.cleanup();
    }
  });
});
