import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, finish, KEYS, renderApp, text } from './helpers';

type Harness = ReturnType<typeof renderApp>;
let app: Harness | undefined;
afterEach(() => {
  app?.cleanup();
  app = undefined;
});

const start = (options: Parameters<typeof renderApp>[0]) => {
  app = renderApp(options);
  return app;
};

const until = (check: () => void, timeout = 5_000) => vi.waitFor(check, { timeout, interval: 20 });

describe('App', () => {
  it('sends a prompt and shows the streamed answer as Markdown, then the usage in the footer', async () => {
    const ui = start({
      turns: [
        {
          chunks: [
            text('## Plan\n\n1. read the code\n2. fix `parse()`\n'),
            text('\nDone.'),
            finish(2000, 50),
          ],
        },
      ],
    });
    await until(() => expect(ui.frame()).toContain('Type your message'));
    await ui.type('fix the parser');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Done.'));
    const frame = ui.frame();
    expect(frame).toContain('> fix the parser');
    expect(frame).toContain('Plan');
    expect(frame).not.toContain('## Plan');
    expect(frame).toMatch(/1\. read the code/);
    expect(frame).toContain('parse()');
    await until(() => expect(ui.frame()).toContain('↑2k ↓50'));
    expect(ui.generator.lastUserText()).toBe('fix the parser');
    expect(ui.history).toEqual(['fix the parser']);
  });

  it('runs an initial prompt (-i) at start', async () => {
    const ui = start({ turns: [{ chunks: [text('Hello there.'), finish()] }], initialPrompt: 'hi' });
    await until(() => expect(ui.frame()).toContain('Hello there.'));
    expect(ui.frame()).toContain('> hi');
  });

  it('asks before a write and writes the file once allowed', async () => {
    const ui = start({
      turns: [
        { chunks: [call('write_file', { file_path: 'a.txt', content: 'one\n' }), finish()] },
        { chunks: [text('Written.'), finish()] },
      ],
    });
    await ui.type('write it');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow once'));
    expect(ui.frame()).toContain('+ one');
    expect(ui.frame()).toContain('awaiting approval');
    expect(existsSync(join(ui.workspace, 'a.txt'))).toBe(false);
    await ui.press('y');
    await until(() => expect(ui.frame()).toContain('Written.'));
    expect(readFileSync(join(ui.workspace, 'a.txt'), 'utf8')).toBe('one\n');
    expect(ui.frame()).toMatch(/✔ WriteFile a\.txt · done/);
  });

  it('puts ask_user to the person as a dialog; the choice reaches the model', async () => {
    const ui = start({
      turns: [
        {
          chunks: [
            call('ask_user', {
              questions: [
                {
                  question: 'Which port?',
                  header: 'Port',
                  options: [
                    { label: '3000', description: 'dev' },
                    { label: '8080', description: 'prod' },
                  ],
                },
              ],
            }),
            finish(),
          ],
        },
        { chunks: [text('Using 8080.'), finish()] },
      ],
    });
    await ui.type('set it up');
    await ui.press(KEYS.enter);
    // This harness has no policy, so the call is approved first (kodo's defaults allow ask_user).
    await until(() => expect(ui.frame()).toContain('Allow once'));
    await ui.press('y');
    await until(() => expect(ui.frame()).toContain('Which port?'));
    expect(ui.frame()).toContain('3. Other');
    // The dialog has the keys: the input box is gone until it is answered.
    expect(ui.frame()).not.toContain('Type your message');
    await ui.press(KEYS.down, KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Using 8080.'));
    const response = ui.generator.requests[1]!.contents.at(-1)!.parts[0]!.functionResponse;
    expect(JSON.stringify(response)).toContain('{\\"answers\\":{\\"0\\":\\"8080\\"}}');
  });

  it('denies with a reason the model reads', async () => {
    const ui = start({
      turns: [
        { chunks: [call('run_shell_command', { command: 'rm -rf build' }), finish()] },
        { chunks: [text('Understood, not deleting.'), finish()] },
      ],
    });
    await ui.type('clean up');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('$ rm -rf build'));
    await ui.press('n');
    await until(() => expect(ui.frame()).toContain('Why not?'));
    await ui.type('keep the build');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Understood, not deleting.'));
    expect(ui.generator.lastUserText()).toContain('User denied execution. The user said: keep the build');
    expect(ui.frame()).toMatch(/⊘ Shell rm -rf build · cancelled/);
  });

  it('edits the proposed content in the editor before running it', async () => {
    const openEditor = vi.fn(async (value: string) => value.replace('draft', 'edited'));
    const ui = start({
      openEditor,
      turns: [
        { chunks: [call('write_file', { file_path: 'b.txt', content: 'draft\n' }), finish()] },
        { chunks: [text('ok'), finish()] },
      ],
    });
    await ui.type('write b');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow once'));
    await ui.press('e');
    await until(() => expect(readFileSync(join(ui.workspace, 'b.txt'), 'utf8')).toBe('edited\n'));
    expect(openEditor).toHaveBeenCalledWith('draft\n', { fileName: 'b.txt' });
    await until(() => expect(ui.frame()).toContain('ok'));
    expect(ui.generator.lastUserText()).toContain('The user modified the arguments');
  });

  it('allows for the session: the second call of the same kind does not ask again', async () => {
    const ui = start({
      turns: [
        { chunks: [call('run_shell_command', { command: 'echo one' }), finish()] },
        { chunks: [call('run_shell_command', { command: 'echo two' }), finish()] },
        { chunks: [text('both ran'), finish()] },
      ],
    });
    await ui.type('go');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow once'));
    await ui.press('a');
    await until(() => expect(ui.frame()).toContain('both ran'));
    expect(ui.frame().match(/Allow once/g)).toBeNull();
  });

  it('cancels a running shell command with Esc and keeps the session usable', async () => {
    const ui = start({
      approvalMode: 'yolo',
      turns: [
        { chunks: [call('run_shell_command', { command: 'sleep 30' }), finish()] },
        { chunks: [text('next answer'), finish()] },
      ],
    });
    await ui.type('wait');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toMatch(/▶ Shell sleep 30 · running/));
    await ui.press(KEYS.escape);
    await until(() => expect(ui.frame()).toContain('Request cancelled.'));
    expect(ui.frame()).toMatch(/⊘ Shell sleep 30 · cancelled/);
    await ui.type('again');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('next answer'));
    // The cancelled call's response stayed in the history, so the model saw what happened.
    expect(ui.generator.lastUserText()).toContain('again');
    expect(JSON.stringify(ui.generator.requests.at(-1)?.contents)).toContain('cancelled');
  });

  it('runs !commands at once (the person typed them) and tells the model about them', async () => {
    const ui = start({ turns: [{ chunks: [text('I see the output.'), finish()] }] });
    await ui.type('!echo from-shell-mode');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toMatch(/✔ Shell echo from-shell-mode · done/));
    expect(ui.frame()).not.toContain('Allow once');
    expect(ui.frame()).toContain('from-shell-mode');
    await ui.type('what did it print?');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('I see the output.'));
    const sent = ui.generator.lastUserText();
    expect(sent).toContain('I ran the following shell command:');
    expect(sent).toContain('from-shell-mode');
    expect(sent).toContain('what did it print?');
  });

  it('attaches @files to the prompt', async () => {
    const ui = start({ turns: [{ chunks: [text('read it'), finish()] }] });
    writeFileSync(join(ui.workspace, 'notes.md'), 'remember the milk\n');
    await ui.type('summarise @notes.md please');
    await ui.press(KEYS.escape, KEYS.enter);
    await until(() => expect(ui.frame()).toContain('read it'));
    expect(ui.frame()).toContain('Attached notes.md');
    expect(ui.generator.lastUserText()).toContain(
      'summarise @notes.md please\n--- Content from referenced files ---\nContent from @notes.md:\nremember the milk\n',
    );
  });

  it('answers slash commands', async () => {
    const ui = start({});
    await ui.type('/help');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Commands and keyboard shortcuts'));
    expect(ui.frame()).toContain('/stats');
    // Steering and queueing are both documented.
    expect(ui.frame()).toMatch(/While the model works, Enter steers it/);
    expect(ui.frame()).toMatch(/queue the line for after the turn/);
    await ui.type('/memory show');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('No context files are loaded in this session.'));
    await ui.type('/model gemini-2.5-flash');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Model switched to gemini-2.5-flash.'));
    expect(ui.sessions[0]!.model).toBe('gemini-2.5-flash');
    expect(ui.frame()).toMatch(/gemini-2\.5-flash · context/);
    await ui.type('/model nosuch:x');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain("Unknown provider 'nosuch' (known: gemini,"));
    expect(ui.frame().replace(/\s+/g, ' ')).toContain('The model stays gemini-2.5-flash.');
    expect(ui.frame()).not.toContain('Model switched to nosuch:x');
    expect(ui.sessions[0]!.model).toBe('gemini-2.5-flash');
    await ui.type('/tools');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('run_shell_command'));
    await ui.type('/settings');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('/home/me/.kodo/settings.json'));
    await ui.type('/about');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('kodo 9.9.9'));
    await ui.type('/bogus');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Unknown command: /bogus'));
  });

  it('copies the last answer with OSC 52 and reports stats', async () => {
    const ui = start({ turns: [{ chunks: [text('copy me'), finish(300, 20)] }] });
    await ui.type('hello');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('copy me'));
    await ui.type('/copy');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Copied the last answer'));
    const written = ui.stdout.frames.join('');
    expect(written).toContain(`\u001b]52;c;${Buffer.from('copy me').toString('base64')}\u0007`);
    await ui.type('/stats');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Session stats'));
    expect(ui.frame()).toMatch(/Requests\s+1/);
  });

  it('/clear starts a new session', async () => {
    const ui = start({ turns: [{ chunks: [text('first'), finish()] }] });
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('first'));
    await ui.type('/clear');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.sessions).toHaveLength(2));
    expect(ui.sessions[1]!.id).not.toBe(ui.sessions[0]!.id);
  });

  it('exits on Ctrl+D, and on Ctrl+C pressed twice', async () => {
    const first = start({});
    await first.press(KEYS.ctrlD);
    await until(() => expect(first.exits).toEqual([first.sessions[0]!.id]));
    first.cleanup();
    const second = start({});
    await second.press(KEYS.ctrlC);
    await until(() => expect(second.frame()).toContain('Press Ctrl+C again to exit.'));
    expect(second.exits).toEqual([]);
    await second.press(KEYS.ctrlC);
    await until(() => expect(second.exits).toHaveLength(1));
  });

  it('cycles the approval mode with Shift+Tab', async () => {
    const ui = start({});
    await until(() => expect(ui.frame()).toMatch(/· default ·/));
    await ui.press(KEYS.shiftTab);
    await until(() => expect(ui.frame()).toMatch(/· auto_edit ·/));
    expect(ui.sessions[0]!.getApprovalMode()).toBe('auto_edit');
  });

  it('the footer follows a mode switched by anyone else (a tool, ACP, the SDK), not only by its keys', async () => {
    const ui = start({ approvalMode: 'plan' });
    await until(() => expect(ui.frame()).toMatch(/· plan ·/));
    // As exit_plan_mode does once its plan is approved: through the session, not the UI.
    ui.sessions[0]!.setApprovalMode('auto_edit', { source: 'tool' });
    await until(() => expect(ui.frame()).toMatch(/· auto_edit ·/));
  });

  it('names the sandbox in force in the footer, and says when it cannot start here', async () => {
    const working = start({
      sandbox: { describe: () => 'bwrap (no network)', status: async () => ({ ok: true }) },
    });
    await until(() => expect(working.frame()).toMatch(/· default · bwrap \(no network\)/));
    expect(working.frame()).not.toContain('no sandbox');
    working.cleanup();
    const broken = start({
      sandbox: {
        describe: () => 'bwrap',
        status: async () => ({ ok: false, message: 'no user namespaces' }),
      },
    });
    await until(() => expect(broken.frame()).toContain('no sandbox (bwrap unavailable)'));
    broken.cleanup();
    const none = start({ env: { KODO_SANDBOX: 'false' } });
    await until(() => expect(none.frame()).toMatch(/· default · no sandbox/));
  });
});
