import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeContentGenerator } from '../../src/llm/fake';
import { createRuntime } from '../../src/runtime/create-runtime';
import type { ConfirmHandler } from '../../src/scheduler/scheduler';
import { createRuntimeFromOptions } from '../../src/sdk/options-runtime';
import { Session } from '../../src/session/session';
import type { SessionOptions } from '../../src/session/session-types';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, stream, tempContext, testTools, text } from '../helpers';

// "Interactive" is the front end's statement (`approvals`), never inferred from a confirm handler
// being there: the engine reads `approvals.interactive`; only the SDK's documented `confirm`
// option is turned into a statement, once, at its boundary (sdk-approvals.ts).

const editThenDone = () =>
  new FakeContentGenerator([
    stream(calls({ name: 'edit_thing', args: { value: 'x' } })),
    stream(text('done')),
  ]);

function sessionWith(approvals: SessionOptions['approvals']) {
  const log: string[] = [];
  const { ctx, cleanup } = tempContext();
  const session = new Session({
    generator: editThenDone(),
    model: 'test-model',
    tools: new ToolRegistry(testTools(log)),
    toolContext: ctx,
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    ...(approvals ? { approvals } : {}),
  });
  return { session, log, cleanup };
}

describe('who answers approvals is stated, not inferred', () => {
  it('a session stated interactive asks its handler, and the call runs once allowed', async () => {
    const asked: string[] = [];
    const confirm: ConfirmHandler = async ({ call }) => {
      asked.push(call.name);
      return { outcome: 'proceed_once' };
    };
    const { session, log, cleanup } = sessionWith({ interactive: true, confirm });
    try {
      await collect(session.sendMessage('edit it', new AbortController().signal));
      expect(asked).toEqual(['edit_thing']);
      expect(log).toEqual(['edit:x']);
    } finally {
      cleanup();
    }
  });

  it('a session stated non-interactive (or stating nothing) refuses what would ask', async () => {
    for (const approvals of [{ interactive: false } as const, undefined]) {
      const { session, log, cleanup } = sessionWith(approvals);
      try {
        await collect(session.sendMessage('edit it', new AbortController().signal));
        expect(log).toEqual([]);
      } finally {
        cleanup();
      }
    }
  });

  it('a bare confirm handler is no statement: SessionOptions has no such field', () => {
    const confirm: ConfirmHandler = async () => ({ outcome: 'proceed_once' });
    const options: Partial<SessionOptions> = {
      // @ts-expect-error a handler being there does not make a session interactive
      confirm,
    };
    expect(options).toBeDefined();
  });

  it("a runtime's sessions take the runtime's statement", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-approvals-')));
    const asked: string[] = [];
    const runtime = await createRuntime({
      settings: {},
      cwd: root,
      env: { PATH: process.env.PATH, HOME: root, KODO_HOME: join(root, '.kodo'), KODO_SANDBOX: 'false' },
      trusted: false,
      approvals: {
        interactive: true,
        confirm: async ({ call }) => {
          asked.push(call.name);
          return { outcome: 'cancel' };
        },
      },
      generator: (model) => ({
        generator: new FakeContentGenerator([
          stream(calls({ name: 'write_file', args: { file_path: join(root, 'a.txt'), content: 'a' } })),
          stream(text('done')),
        ]),
        model,
        flush: async () => undefined,
      }),
    });
    try {
      const { session } = await runtime.newSession();
      await collect(session.sendMessage('write it', new AbortController().signal));
      expect(asked).toEqual(['write_file']);
    } finally {
      await runtime.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("the SDK's confirm option (its documented contract) makes an interactive runtime", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-approvals-')));
    const asked: string[] = [];
    const runtime = await createRuntimeFromOptions({
      cwd: root,
      env: { PATH: process.env.PATH, HOME: root, KODO_HOME: join(root, '.kodo'), KODO_SANDBOX: 'false' },
      generator: new FakeContentGenerator([
        stream(calls({ name: 'write_file', args: { file_path: join(root, 'a.txt'), content: 'a' } })),
        stream(text('done')),
      ]),
      confirm: async ({ call }) => {
        asked.push(call.name);
        return { outcome: 'cancel' };
      },
    });
    try {
      const { session } = await runtime.newSession();
      await collect(session.sendMessage('write it', new AbortController().signal));
      expect(asked).toEqual(['write_file']);
    } finally {
      await runtime.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
