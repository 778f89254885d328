import type { ConfirmationResponse } from '@kodo/core/engine';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtinCommands } from '../../src/ui/commands/registry';
import { ConfirmDialog } from '../../src/ui/components/confirm-dialog';
import { InputPrompt, type SubmitMode } from '../../src/ui/components/input-prompt';
import { ConfirmationBridge } from '../../src/ui/confirmation-bridge';
import { KEYS, sleep } from './helpers';

const until = (check: () => void) => vi.waitFor(check, { timeout: 3_000, interval: 10 });

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

function prompt(options: { history?: string[]; files?: string[]; busy?: boolean } = {}) {
  const submitted: [string, SubmitMode][] = [];
  const calls = { cancel: 0, interrupt: 0, exit: 0 };
  const instance = render(
    <InputPrompt
      commands={builtinCommands()}
      listFiles={async () => options.files ?? []}
      history={options.history ?? []}
      width={80}
      isActive
      busy={options.busy ?? false}
      onSubmit={(text, mode) => {
        submitted.push([text, mode]);
        return true;
      }}
      onCancel={() => calls.cancel++}
      onInterrupt={() => calls.interrupt++}
      onExit={() => calls.exit++}
    />,
  );
  unmount = instance.unmount;
  const keys = async (...sequence: string[]) => {
    for (const key of sequence) {
      instance.stdin.write(key);
      await sleep(key === KEYS.escape ? 60 : 10);
    }
  };
  return { ...instance, submitted, calls, keys, frame: () => instance.lastFrame() ?? '' };
}

describe('InputPrompt', () => {
  it('submits on Enter and starts a new line with Alt+Enter, Ctrl+J or a trailing backslash', async () => {
    const ui = prompt();
    await ui.keys('first', KEYS.altEnter, 'second', '\n', 'third\\', KEYS.enter, 'fourth', KEYS.enter);
    expect(ui.submitted).toEqual([['first\nsecond\nthird\nfourth', 'prompt']]);
  });

  it('edits at the cursor', async () => {
    const ui = prompt();
    await ui.keys('helo', KEYS.left, 'l', KEYS.backspace, 'l', '\u0001', '>', KEYS.enter);
    expect(ui.submitted).toEqual([['>hello', 'prompt']]);
  });

  it('recalls earlier prompts with ↑/↓ and keeps the draft', async () => {
    const ui = prompt({ history: ['old one', 'old two'] });
    await ui.keys('draft', KEYS.up);
    await until(() => expect(ui.frame()).toContain('old two'));
    await ui.keys(KEYS.up);
    await until(() => expect(ui.frame()).toContain('old one'));
    await ui.keys(KEYS.down, KEYS.down);
    await until(() => expect(ui.frame()).toContain('draft'));
    await ui.keys(KEYS.up, KEYS.enter);
    expect(ui.submitted).toEqual([['old two', 'prompt']]);
  });

  it('searches earlier prompts with Ctrl+R', async () => {
    const ui = prompt({ history: ['git status', 'npm test', 'git log --oneline', 'ls'] });
    await ui.keys(KEYS.ctrlR, 'git');
    await until(() => expect(ui.frame()).toContain("(search 'git') git log --oneline"));
    await ui.keys(KEYS.ctrlR);
    await until(() => expect(ui.frame()).toContain("(search 'git') git status"));
    await ui.keys(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('> git status'));
    await ui.keys(KEYS.enter);
    expect(ui.submitted).toEqual([['git status', 'prompt']]);
  });

  it('collapses a large bracketed paste into a placeholder and sends the full text', async () => {
    const ui = prompt();
    const pasted = Array.from({ length: 30 }, (_, i) => `log line ${i}`).join('\r');
    await ui.keys('look: ', '\u001b[200~', pasted, '\u001b[201~');
    await until(() => expect(ui.frame()).toContain('[Pasted text #1 +30 lines]'));
    expect(ui.frame()).not.toContain('log line 12');
    await ui.keys(KEYS.enter);
    expect(ui.submitted).toEqual([[`look: ${pasted.replace(/\r/g, '\n')}`, 'prompt']]);
  });

  it('keeps pasted newlines as text, not Enter, without bracketed paste', async () => {
    const ui = prompt();
    await ui.keys('a\rb');
    expect(ui.submitted).toEqual([]);
    await ui.keys(KEYS.enter);
    expect(ui.submitted).toEqual([['a\nb', 'prompt']]);
  });

  it('completes /commands and @paths', async () => {
    const ui = prompt({ files: ['src/', 'src/app.ts', 'src/util/strings.ts', 'README.md'] });
    await ui.keys('/st');
    await until(() => expect(ui.frame()).toContain('Requests, tokens, cost'));
    await ui.keys(KEYS.tab);
    await until(() => expect(ui.frame()).toContain('> /stats'));
    await ui.keys(
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
    );
    await ui.keys('read @strs');
    await until(() => expect(ui.frame()).toContain('src/util/strings.ts'));
    await ui.keys(KEYS.tab);
    await until(() => expect(ui.frame()).toContain('> read @src/util/strings.ts'));
    await ui.keys('and @ap', KEYS.down, KEYS.up, KEYS.enter);
    await until(() => expect(ui.frame()).toContain('@src/app.ts'));
    await ui.keys(KEYS.escape, KEYS.enter);
    expect(ui.submitted).toEqual([['read @src/util/strings.ts and @src/app.ts ', 'prompt']]);
  });

  it('enters shell mode with ! and leaves it with Esc', async () => {
    const ui = prompt();
    await ui.keys('!');
    await until(() => expect(ui.frame()).toContain('shell mode'));
    await ui.keys('ls -la', KEYS.enter);
    expect(ui.submitted).toEqual([['ls -la', 'shell']]);
    await ui.keys(KEYS.escape);
    await until(() => expect(ui.frame()).not.toContain('shell mode'));
  });

  it('routes Esc, Ctrl+C and Ctrl+D', async () => {
    const busy = prompt({ busy: true });
    await busy.keys(KEYS.escape, KEYS.ctrlC);
    expect(busy.calls).toMatchObject({ cancel: 1, interrupt: 1 });
    busy.unmount();
    const idle = prompt();
    await idle.keys('text', KEYS.ctrlC);
    await until(() => expect(idle.frame()).toContain('Type your message'));
    expect(idle.calls.interrupt).toBe(0);
    await idle.keys(KEYS.ctrlC, KEYS.ctrlD);
    expect(idle.calls).toMatchObject({ interrupt: 1, exit: 1 });
  });
});

describe('ConfirmDialog', () => {
  async function ask(
    details: Parameters<ConfirmationBridge['handler']>[0]['details'],
    keys: string[],
    options: { permanent?: boolean; session?: boolean; args?: Record<string, unknown> } = {},
  ) {
    const bridge = new ConfirmationBridge();
    const args = options.args ?? (details.kind === 'edit' ? { file_path: 'a.txt' } : { command: 'make' });
    const answer = bridge.handler({
      call: { callId: 'c1', name: 'run_shell_command', args, promptId: 'p' },
      details,
      signal: new AbortController().signal,
    });
    const instance = render(
      <ConfirmDialog
        pending={bridge.current()!}
        displayName="Shell"
        openEditor={async () => undefined}
        width={80}
        maxPreviewLines={5}
        onCancelRequest={() => {}}
        permanentApproval={options.permanent === true}
        sessionApproval={options.session !== false}
      />,
    );
    unmount = instance.unmount;
    for (const key of keys) {
      instance.stdin.write(key);
      await sleep(key === KEYS.escape ? 60 : 10);
    }
    return { answer: answer as Promise<ConfirmationResponse>, frame: instance.lastFrame() ?? '', bridge };
  }
  const exec = {
    kind: 'exec' as const,
    title: 'Confirm Shell Command',
    command: 'make',
    rootCommands: ['make'],
  };

  it('maps every choice to its outcome', async () => {
    expect(await (await ask(exec, ['1'])).answer).toEqual({ outcome: 'proceed_once' });
    expect(await (await ask(exec, ['a'])).answer).toEqual({ outcome: 'proceed_always' });
    expect(await (await ask(exec, [KEYS.down, KEYS.down, KEYS.enter], { permanent: true })).answer).toEqual({
      outcome: 'proceed_always_and_save',
    });
    expect(await (await ask(exec, [KEYS.escape])).answer).toEqual({ outcome: 'cancel' });
  });

  it('names the command for "allow for this session" and shows it', async () => {
    const { frame, answer } = await ask(exec, []);
    expect(frame).toContain('$ make');
    expect(frame).toContain('2. Allow for this session (`make` commands)');
    expect(frame).not.toContain('future sessions');
    void answer;
  });

  // A digit picks the same answer as in Gemini CLI, for each kind of call.
  const numbered = (frame: string) =>
    [...frame.matchAll(/(\d)\. ([A-Z][^([\n]*?)\s*(?:\(|\[)/g)].map((match) => `${match[1]}. ${match[2]}`);
  const edit = {
    kind: 'edit' as const,
    title: 'Confirm Edit',
    filePath: 'a.txt',
    diff: '--- a\n+++ b\n',
    newContent: 'b',
  };
  const info = { kind: 'info' as const, title: 'Confirm Web Fetch', prompt: 'https://example.com' };
  it('numbers the choices in Gemini CLI’s order for edits, commands and other calls', async () => {
    expect(numbered((await ask(edit, [])).frame)).toEqual([
      '1. Allow once',
      '2. Allow for this session',
      '3. Modify with external editor',
      '4. No, suggest changes',
    ]);
    expect(numbered((await ask(exec, [])).frame)).toEqual([
      '1. Allow once',
      '2. Allow for this session',
      '3. No, suggest changes',
      '4. Modify with external editor',
    ]);
    expect(numbered((await ask(info, [], { permanent: true })).frame)).toEqual([
      '1. Allow once',
      '2. Allow for this session',
      '3. Allow for all future sessions',
      '4. No, suggest changes',
      '5. Modify with external editor',
    ]);
    expect(numbered((await ask(edit, [], { permanent: true })).frame)).toEqual([
      '1. Allow once',
      '2. Allow for this session',
      '3. Allow for this file in all future sessions',
      '4. Modify with external editor',
      '5. No, suggest changes',
    ]);
    expect((await ask(exec, [], { permanent: true })).frame).toContain(
      '3. Allow this command for all future sessions',
    );
    // A patch names its files in its text: its saved rule allows the tool, and says so.
    expect((await ask(edit, [], { permanent: true, args: { input: '*** Begin Patch' } })).frame).toContain(
      '3. Allow this tool for all future sessions',
    );
    const mcp = { kind: 'info' as const, title: 'Confirm MCP tool', prompt: 'query', serverName: 'db' };
    expect(numbered((await ask(mcp, [])).frame)).toEqual([
      '1. Allow once',
      '2. Allow tool for this session',
      '3. Allow all server tools for this session',
      '4. No, suggest changes',
      '5. Modify with external editor',
    ]);
    expect(await (await ask(mcp, ['3'])).answer).toEqual({ outcome: 'proceed_always_server' });
    // An untrusted folder: no "for this session", as in Gemini CLI.
    expect(numbered((await ask(edit, [], { session: false })).frame)).toEqual([
      '1. Allow once',
      '2. Modify with external editor',
      '3. No, suggest changes',
    ]);
    expect(numbered((await ask(mcp, [], { session: false })).frame)).toEqual([
      '1. Allow once',
      '2. No, suggest changes',
      '3. Modify with external editor',
    ]);
    // The digit answers: 3 on an edit opens the editor in both programs, 3 on a command says no.
    expect(await (await ask(exec, ['3', KEYS.enter])).answer).toEqual({ outcome: 'cancel' });
    expect((await ask(edit, [])).frame).toContain('4. No, suggest changes (esc)');
  });

  const plan = {
    kind: 'plan' as const,
    title: 'Plan Approval',
    planPath: '/tmp/plans/plan.md',
    plan: '# Plan\n1. one\n2. two\n3. three\n4. four\n5. five\n6. six\n7. seven',
    returnModes: ['default' as const, 'auto_edit' as const],
  };

  it('a plan approval offers the modes to return to (never yolo) and keeping on planning', async () => {
    // React reports children that share a key (two "plan" choices) on console.error.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { frame, answer } = await ask(plan, []);
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
    expect(frame).toContain('/tmp/plans/plan.md');
    expect(frame).toContain('1. one');
    expect(frame).toContain('… 3 more lines in the file');
    expect(frame).toContain('Approve this plan?');
    expect(frame).toMatch(/❯ 1\. Yes, manually accept edits/);
    expect(frame).toContain('2. Yes, automatically accept edits');
    expect(frame).toContain('3. No, keep planning');
    expect(frame).not.toMatch(/yolo|Allow once|always/i);
    void answer;
    expect(await (await ask(plan, [KEYS.enter])).answer).toEqual({
      outcome: 'proceed_once',
      approvalMode: 'default',
    });
    expect(await (await ask(plan, ['2'])).answer).toEqual({
      outcome: 'proceed_once',
      approvalMode: 'auto_edit',
    });
    expect(
      await (await ask({ ...plan, returnModes: ['auto_edit', 'default'] }, [KEYS.enter])).answer,
    ).toEqual({
      outcome: 'proceed_once',
      approvalMode: 'auto_edit',
    });
    const rejected = await ask(plan, ['n', 'm', 'o', 'r', 'e', KEYS.enter]);
    expect(await rejected.answer).toEqual({ outcome: 'cancel', reason: 'more' });
  });

  it('answers cancel by itself when the request is aborted', async () => {
    const bridge = new ConfirmationBridge();
    const controller = new AbortController();
    const answer = bridge.handler({
      call: { callId: 'c1', name: 'x', args: {}, promptId: 'p' },
      details: exec,
      signal: controller.signal,
    });
    expect(bridge.current()).toBeDefined();
    controller.abort();
    expect(await answer).toEqual({ outcome: 'cancel' });
    expect(bridge.current()).toBeUndefined();
  });
});
