// Ctrl+Y toggles yolo; the bell and an OSC 9 notification tell the person, when the terminal is
// not focused, that a long turn ended or that a tool waits for approval.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { focusReport, notificationPolicy, notificationSequence } from '../../src/ui/notify';
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
const OSC9 = '\u0007\u001b]9;';
const written = (ui: Harness) => ui.stdout.frames.join('');
const slowTurn = { chunks: [text('slow '), text('answer'), finish()], delayMs: 120 };
const notifying = { KODO_NOTIFICATIONS: '1' };
const fast = { ui: { notifications: { longTurnSeconds: 0.1 } } };

describe('Ctrl+Y', () => {
  it('turns yolo on and back to the mode before, shown in the status line', async () => {
    const ui = start({ approvalMode: 'auto_edit' });
    await until(() => expect(ui.frame()).toMatch(/· auto_edit ·/));
    await ui.press(KEYS.ctrlY);
    await until(() => expect(ui.frame()).toMatch(/· yolo ·/));
    expect(ui.sessions[0]!.getApprovalMode()).toBe('yolo');
    await ui.press(KEYS.ctrlY);
    await until(() => expect(ui.frame()).toMatch(/· auto_edit ·/));
    expect(ui.sessions[0]!.getApprovalMode()).toBe('auto_edit');
  });

  it('is refused when the settings disable yolo', async () => {
    const ui = start({ settings: { security: { disableYoloMode: true } } });
    await ui.press(KEYS.ctrlY);
    await until(() => expect(ui.frame()).toContain('YOLO mode is disabled by the settings'));
    expect(ui.sessions[0]!.getApprovalMode()).toBe('default');
  });

  it("is refused under the administrator's secure mode too, and Shift+Tab never reaches yolo", async () => {
    const ui = start({ settings: { admin: { secureModeEnabled: true } }, approvalMode: 'auto_edit' });
    await ui.press(KEYS.ctrlY);
    await until(() => expect(ui.frame()).toContain('(admin.secureModeEnabled)'));
    expect(ui.sessions[0]!.getApprovalMode()).toBe('auto_edit');
    for (let i = 0; i < 4; i++) {
      await ui.press(KEYS.shiftTab);
      expect(ui.sessions[0]!.getApprovalMode()).not.toBe('yolo');
    }
  });
});

describe('notifications', () => {
  it('ring and notify when a long turn ends and the focus is unknown', async () => {
    const ui = start({ turns: [slowTurn], env: notifying, settings: fast });
    await ui.type('go');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow answer'));
    await until(() => expect(written(ui)).toContain(`${OSC9}kodo: done after`));
  });

  it('stay quiet while the terminal has focus, and the focus report is not typed', async () => {
    const ui = start({ turns: [slowTurn], env: notifying, settings: fast });
    await ui.press(KEYS.focusIn);
    await ui.type('go');
    await ui.press(KEYS.focusOut, KEYS.focusIn);
    await until(() => expect(ui.frame()).toContain('> go'));
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow answer'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written(ui)).not.toContain(OSC9);
    expect(ui.generator.lastUserText()).toBe('go');
  });

  it('stay quiet for a turn shorter than the setting, and when turned off', async () => {
    const short = start({ turns: [{ chunks: [text('quick'), finish()] }], env: notifying });
    await short.type('go');
    await short.press(KEYS.enter);
    await until(() => expect(short.frame()).toContain('quick'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written(short)).not.toContain(OSC9);
    short.cleanup();
    const off = start({
      turns: [slowTurn],
      env: notifying,
      settings: { ui: { notifications: { enabled: false, longTurnSeconds: 0.1 } } },
    });
    app = off;
    await off.type('go');
    await off.press(KEYS.enter);
    await until(() => expect(off.frame()).toContain('slow answer'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written(off)).not.toContain(OSC9);
  });

  it('tell that a tool waits for approval when the terminal is not focused', async () => {
    const ui = start({
      turns: [{ chunks: [call('write_file', { file_path: 'a.txt', content: 'x\n' }), finish()] }],
      env: notifying,
    });
    await ui.press(KEYS.focusOut);
    await ui.type('write');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow once'));
    await until(() => expect(written(ui)).toContain(`${OSC9}kodo: write_file needs your approval`));
  });
});

describe('notification pieces', () => {
  it('read focus reports, strip control characters and read the settings', () => {
    expect(focusReport('[I')).toBe('in');
    expect(focusReport('\u001b[O')).toBe('out');
    expect(focusReport('[')).toBeUndefined();
    expect(notificationSequence('a\u001b]0;evil\u0007b')).toBe('\u0007\u001b]9;a ]0;evil b\u0007');
    expect(notificationPolicy({}, {})).toEqual({ enabled: true, longTurnMs: 10_000 });
    expect(notificationPolicy({ ui: { notifications: { longTurnSeconds: 3 } } }, {}).longTurnMs).toBe(3000);
    expect(notificationPolicy({}, { KODO_NOTIFICATIONS: '0' }).enabled).toBe(false);
  });
});
