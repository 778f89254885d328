/**
 * The approval-mode gate: one decision for every route to yolo. The front-end routes (flags,
 * ACP, `mcp serve`, the UI's keys) are attacked end to end in the CLI's tests
 * (approval-lockdown.e2e.test.ts, ui/notifications.test.tsx); here: the decision itself, the
 * Session (its first mode and every change, the plan tools' switch), the SDK, resolveConfig and
 * the settings merge that must not let a project unlock what the user locked.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import { createSession, SessionSetupError } from '../../src/sdk/create-session';
import {
  ApprovalModeError,
  type ApprovalModeSource,
  approvalLockdown,
  decideApprovalMode,
} from '../../src/session/approval-mode-gate';
import { resolveConfig } from '../../src/session/resolve-config';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { tempContext } from '../helpers';

const DISABLED = { yoloRefusedBy: 'security.disableYoloMode' } as const;
const SECURE = { yoloRefusedBy: 'admin.secureModeEnabled' } as const;
const SOURCES: ApprovalModeSource[] = ['flag', 'settings', 'keys', 'acp', 'mcp_serve', 'sdk', 'tool'];

const noModel: ContentGenerator = {
  provider: 'none',
  generateContent: async () => ({}),
  countTokens: async () => ({ totalTokens: 0 }),
  // biome-ignore lint/correctness/useYield: never called.
  async *generateContentStream() {
    throw new Error('not called');
  },
};

function session(options: Partial<ConstructorParameters<typeof Session>[0]> = {}) {
  return new Session({
    generator: noModel,
    model: 'm',
    tools: new ToolRegistry([]),
    toolContext: tempContext().ctx,
    ...options,
  });
}

describe('decideApprovalMode', () => {
  it.each(SOURCES)('refuses yolo from %s under either lock-down, naming the setting', (source) => {
    for (const lockdown of [DISABLED, SECURE]) {
      const decision = decideApprovalMode({ mode: 'yolo', source }, { lockdown });
      expect(decision).toEqual({
        ok: false,
        message: expect.stringContaining(`(${lockdown.yoloRefusedBy})`),
      });
      expect((decision as { message: string }).message).not.toContain('\n');
    }
  });

  it('lets every other mode through, and yolo without a lock-down; an untrusted folder gets default', () => {
    for (const mode of ['default', 'auto_edit', 'plan'] as const) {
      expect(decideApprovalMode({ mode, source: 'acp' }, { lockdown: SECURE })).toEqual({ ok: true, mode });
    }
    expect(decideApprovalMode({ mode: 'yolo', source: 'flag' }, { lockdown: {} })).toEqual({
      ok: true,
      mode: 'yolo',
    });
    expect(
      decideApprovalMode({ mode: 'auto_edit', source: 'flag' }, { lockdown: {}, trusted: false }),
    ).toEqual({
      ok: true,
      mode: 'default',
    });
  });

  it('reads the lock-down from either setting; secure mode is named first', () => {
    expect(approvalLockdown({})).toEqual({});
    expect(approvalLockdown({ security: { disableYoloMode: true } })).toEqual(DISABLED);
    expect(
      approvalLockdown({ admin: { secureModeEnabled: true }, security: { disableYoloMode: true } }),
    ).toEqual(SECURE);
  });
});

describe('the Session under a lock-down', () => {
  it('refuses to start in yolo', () => {
    expect(() => session({ approvalMode: 'yolo', approvalLockdown: DISABLED })).toThrow(ApprovalModeError);
  });

  it('refuses a switch to yolo and keeps its mode; other switches still work', () => {
    const s = session({ approvalMode: 'auto_edit', approvalLockdown: SECURE });
    const refused = s.setApprovalMode('yolo', { source: 'acp' });
    expect(refused).toEqual({ ok: false, message: expect.stringContaining('admin.secureModeEnabled') });
    expect(s.getApprovalMode()).toBe('auto_edit');
    expect(s.setApprovalMode('plan')).toEqual({ ok: true, mode: 'plan' });
    expect(s.getApprovalMode()).toBe('plan');
  });

  it('the tools that switch modes (plan mode) go through the same gate', () => {
    const s = session({ approvalMode: 'default', approvalLockdown: DISABLED });
    const access = (s as unknown as { toolContext: { approvalMode: { set(mode: string): void } } })
      .toolContext.approvalMode;
    access.set('yolo');
    expect(s.getApprovalMode()).toBe('default');
  });
});

describe('the SDK under a lock-down', () => {
  it('createSession refuses yolo with SessionSetupError; setApprovalMode refuses it later', () => {
    const cwd = tempContext().root;
    expect(() =>
      createSession({ cwd, generator: noModel, approvalMode: 'yolo', approvalLockdown: DISABLED }),
    ).toThrow(SessionSetupError);
    const s = createSession({ cwd, generator: noModel, approvalLockdown: DISABLED });
    expect(s.setApprovalMode('yolo').ok).toBe(false);
    expect(s.getApprovalMode()).toBe('default');
  });
});

describe('resolveConfig and the settings', () => {
  it('a flag asking for yolo under a lock-down throws ApprovalModeError naming the flag and setting', () => {
    expect(() =>
      resolveConfig({ approvalMode: 'yolo' }, {}, { security: { disableYoloMode: true } }, { trusted: true }),
    ).toThrow(/-y\/--approval-mode yolo is refused: .*\(security\.disableYoloMode\)/);
    const config = resolveConfig({}, {}, { admin: { secureModeEnabled: true } }, { trusted: true });
    expect(config.session).toMatchObject({ approvalMode: 'default', approvalLockdown: SECURE });
  });

  it("a project's settings cannot turn the user's lock-down off", () => {
    const root = mkdtempSync(join(tmpdir(), 'kodo-lockdown-'));
    try {
      const home = join(root, 'home');
      const cwd = join(root, 'project');
      mkdirSync(join(cwd, '.kodo'), { recursive: true });
      mkdirSync(home);
      writeFileSync(
        join(home, 'settings.json'),
        JSON.stringify({ security: { disableYoloMode: true }, admin: { secureModeEnabled: true } }),
      );
      writeFileSync(
        join(cwd, '.kodo', 'settings.json'),
        JSON.stringify({ security: { disableYoloMode: false }, admin: { secureModeEnabled: false } }),
      );
      const { merged } = loadSettings({ cwd, env: { KODO_HOME: home, GEMINI_CLI_HOME: home } });
      expect(approvalLockdown(merged)).toEqual(SECURE);
      expect(merged.security?.disableYoloMode).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
