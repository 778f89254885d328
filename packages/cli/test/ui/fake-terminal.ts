import { EventEmitter } from 'node:events';
import { type ContentGenerator, lazyBuiltinTools, Session, ToolRegistry, Workspace } from '@kodo/core/engine';
import { builtinCommands } from '../../src/ui/commands/registry';
import { ConfirmationBridge } from '../../src/ui/confirmation-bridge';
import { HighlighterLoader } from '../../src/ui/markdown/highlighter-loader';

/**
 * A terminal as Ink sees it for tests of the whole mounted UI (`mountApp`): a TTY of a fixed size
 * that records every write, with when it happened; `log`, when given, also gets `write <text>`.
 */
export class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  columns = 100;
  rows = 30;
  readonly writes: { at: number; bytes: number; text: string }[] = [];
  constructor(private readonly log?: string[]) {
    super();
  }
  write = (chunk: string) => {
    this.writes.push({ at: performance.now(), bytes: Buffer.byteLength(chunk), text: chunk });
    this.log?.push(`write ${chunk}`);
    return true;
  };
  bytesBetween(from: number, to: number): number {
    return this.writes.filter((w) => w.at >= from && w.at < to).reduce((sum, w) => sum + w.bytes, 0);
  }
  text(): string {
    return this.writes.map((w) => w.text).join('');
  }
}

/** The keyboard side: keys arrive the way a terminal delivers them; `log` gets `raw <mode>`. */
export class FakeInput extends EventEmitter {
  readonly isTTY = true;
  private queued: string[] = [];
  constructor(private readonly log?: string[]) {
    super();
  }
  /** Types keys: readable, then read() until empty. */
  type(keys: string) {
    this.queued.push(keys);
    this.emit('readable');
  }
  setRawMode(mode: boolean) {
    this.log?.push(`raw ${mode}`);
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

/**
 * Mounts the real App (`mountApp`) on a fake terminal over a session of `generator` in `workspace`,
 * approvals answered through the dialog; resolves when the person leaves (Ctrl+D on `stdin`).
 */
export async function mountOnFakeTerminal(options: {
  generator: ContentGenerator;
  workspace: string;
  stdout: FakeTerminal;
  stdin: FakeInput;
  initialPrompt?: string;
}): Promise<{ session: Session; done: Promise<string> }> {
  const bridge = new ConfirmationBridge();
  const tools = new ToolRegistry(lazyBuiltinTools());
  const session = new Session({
    generator: options.generator,
    model: 'gemini-2.5-pro',
    tools,
    toolContext: {
      workspace: new Workspace({ roots: [options.workspace] }),
      env: {},
      shellInactivityTimeoutMs: 10_000,
    },
    approvals: { interactive: true, confirm: bridge.handler },
    includeEnvironmentContext: false,
  });
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
      cwd: options.workspace,
      env: {},
      themeName: 'dark',
      highlighter: new HighlighterLoader(async () => ({ highlight: () => undefined })),
      inputHistory: { load: () => [], add: () => [] },
      listFiles: async () => [],
      ...(options.initialPrompt ? { initialPrompt: options.initialPrompt } : {}),
    },
    {
      stdout: options.stdout as never,
      stdin: options.stdin as never,
      stderr: new FakeTerminal() as never,
      patchConsole: false,
    },
  );
  return { session, done };
}
