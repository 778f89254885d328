import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTmux, KODO_BIN, KODO_READY, KodoTmux, type TmuxSession } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * The built `kodo` in a real terminal (tmux), driven by keys and checked on the screen text.
 * CI installs tmux (.ci/run); locally these skip when it is missing.
 */
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

let kodo: KodoTmux;

beforeEach(() => {
  // The cancel test reads a pid a command wrote; in the sandbox's PID namespace it would be a
  // namespace-local number (the sandbox's own cleanup is tested in sandbox-bwrap.test.ts).
  kodo = new KodoTmux({ env: { KODO_SANDBOX: 'false' } });
});
afterEach(() => kodo.close());

/** Typing before the UI has put the terminal in raw mode would echo into the cooked line. */
async function typeLine(session: TmuxSession, text: string): Promise<void> {
  await session.waitFor(KODO_READY);
  session.type(text);
  await session.waitFor(text);
  session.press('Enter');
}

async function until(read: () => string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== '' || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Live processes whose argv[0] is `name`. */
function processesNamed(name: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasTmux())('kodo interactive UI in a real terminal', () => {
  it('shows the streamed answer to a typed prompt, rendered as Markdown', async () => {
    const session = kodo.start(['--fake-responses', join(fixtures, 'ui-text.jsonl')]);
    await typeLine(session, 'explain something');
    const screen = await session.waitFor('kodo-ui-ok');
    expect(screen).toContain('> explain something');
    expect(screen).toContain('Streamed answer');
    // List items get bullets, the code block keeps its text, the Markdown markers are gone.
    expect(screen).toMatch(/• first item with inline code/);
    expect(screen).toContain('const answer = 42;');
    expect(screen).not.toContain('```');
    expect(screen).not.toContain('# Streamed');
    // Ready for the next prompt, and the footer counted the tokens.
    await session.waitFor(KODO_READY);
    expect(session.capture()).toContain('↑1.2k');
    session.press('C-d');
    const exit = await session.waitFor('[exited 0]');
    expect(exit).toMatch(/To continue it later: kodo --resume [0-9a-f-]{36}/);
  });

  it('asks before write_file and writes the file once allowed in the dialog', async () => {
    const session = kodo.start(['--fake-responses', join(fixtures, 'ui-write-file.jsonl')]);
    await typeLine(session, 'write the note');
    const dialog = await session.waitFor('Allow once');
    expect(dialog).toContain('notes/approved.txt');
    expect(dialog).toContain('+ approved in the dialog');
    expect(existsSync(join(kodo.workspace, 'notes/approved.txt'))).toBe(false);
    session.press('1');
    const done = await session.waitFor('The file notes/approved.txt is written.');
    expect(done).toMatch(/✔ WriteFile notes\/approved\.txt · done/);
    expect(readFileSync(join(kodo.workspace, 'notes/approved.txt'), 'utf8')).toBe('approved in the dialog\n');
  });

  it('cancels a long shell command with Esc and leaves no process behind', async () => {
    const session = kodo.start(['--yolo', '--fake-responses', join(fixtures, 'ui-shell-cancel.jsonl')]);
    await typeLine(session, 'run the long command');
    await session.waitFor(/▶ Shell .*· running/);
    // Found by name from here: the command runs in its own PID namespace, where `$!` is not the
    // host's pid.
    const pid = Number(await until(() => String(processesNamed('kodo-ui-cancel-sleep')[0] ?? '')));
    // The command's own output streams into its box while it runs.
    await session.waitFor(/│ started-long-sleep/);
    expect(isAlive(pid)).toBe(true);
    session.press('Escape');
    const screen = await session.waitFor('Request cancelled.');
    expect(screen).toMatch(/⊘ Shell .*· cancelled/);
    // The tool stops the whole process group (SIGTERM, then SIGKILL after a grace period).
    const deadline = Date.now() + 5_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(pid)).toBe(false);
    // The session goes on: the prompt is ready again.
    await session.waitFor(KODO_READY);
  });

  it('shows how each tool call of a resumed Gemini session ended (its calls carry no ids)', async () => {
    const headless = spawnSync(
      process.execPath,
      [KODO_BIN, '-p', 'list the folder', '-y', '--fake-responses', join(fixtures, 'resume-shell.jsonl')],
      { cwd: kodo.workspace, env: kodo.env(), encoding: 'utf8' },
    );
    expect(headless.status, headless.stderr).toBe(0);
    const session = kodo.start(['--resume', '--fake-responses', join(fixtures, 'ui-text.jsonl')]);
    const screen = await session.waitFor('Listed the folder.');
    expect(screen).toMatch(/✔ Shell ls -la.*· done/);
    expect(screen).not.toContain('cancelled');
  });
});
