import { EventEmitter } from 'node:events';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lazyBuiltinTools, Session, ToolRegistry, Workspace } from '@kodo/core/engine';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { builtinCommands } from '../../src/ui/commands/registry';
import { ConfirmationBridge } from '../../src/ui/confirmation-bridge';
import { HighlighterLoader } from '../../src/ui/markdown/highlighter-loader';
import { ScriptedGenerator } from './helpers';

// Ink writes only final output when it thinks it runs in CI: hide the variables before it loads.
vi.hoisted(() => {
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
});

/** Every event on the terminal in order: frames written, and raw mode switched. */
const events: string[] = [];

class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  columns = 100;
  rows = 30;
  write = (chunk: string) => {
    events.push(`write ${chunk.includes('Type your message') ? 'ready' : 'other'}`);
    return true;
  };
}

class FakeInput extends EventEmitter {
  readonly isTTY = true;
  private queued: string[] = [];
  type(keys: string) {
    this.queued.push(keys);
    this.emit('readable');
  }
  setRawMode(mode: boolean) {
    events.push(`raw ${mode}`);
  }
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read() {
    return this.queued.shift() ?? null;
  }
}

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-raw-mode-')));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('the terminal UI and raw mode', () => {
  it('takes the keys (raw mode) before it draws the prompt, and gives them back at exit', async () => {
    // Keys typed once the prompt shows must reach the UI: a terminal still in line mode echoes
    // them under the frame and holds them until Enter, which then arrives as pasted text (seen
    // in the tmux test on a busy machine: the prompt was typed and never sent).
    const tools = new ToolRegistry(lazyBuiltinTools());
    const bridge = new ConfirmationBridge();
    const session = new Session({
      generator: new ScriptedGenerator([]),
      model: 'gemini-2.5-pro',
      tools,
      toolContext: {
        workspace: new Workspace({ roots: [workspace] }),
        env: {},
        shellInactivityTimeoutMs: 10_000,
      },
      approvals: { interactive: true, confirm: bridge.handler },
      includeEnvironmentContext: false,
    });
    const stdin = new FakeInput();
    const { mountApp } = await import('../../src/ui/mount');
    const done = mountApp(
      {
        session,
        tools,
        createSession: async () => session,
        bridge,
        commands: builtinCommands(),
        settings: { merged: {}, sources: [] },
        version: 'test',
        cwd: workspace,
        env: {},
        themeName: 'dark',
        highlighter: new HighlighterLoader(async () => ({ highlight: () => undefined })),
        inputHistory: { load: () => [], add: () => [] },
        listFiles: async () => [],
      },
      {
        stdout: new FakeTerminal() as never,
        stdin: stdin as never,
        stderr: new FakeTerminal() as never,
        patchConsole: false,
      },
    );
    await vi.waitFor(() => expect(events).toContain('write ready'), { timeout: 10_000 });
    const firstReady = events.indexOf('write ready');
    const rawOn = events.indexOf('raw true');
    expect(rawOn).toBeGreaterThanOrEqual(0);
    expect(rawOn, events.slice(0, firstReady + 2).join(', ')).toBeLessThan(firstReady);
    stdin.type('\u0004');
    await done;
    expect(
      events.at(-1) === 'raw false' || events.lastIndexOf('raw false') > events.lastIndexOf('raw true'),
    ).toBe(true);
  });
});
