import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadReplayGenerators, Session, ToolRegistry, Workspace } from '@kodo/core/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endInteractiveRun } from '../../src/ui/session-exit';

const { FakeContentGenerator } = await loadReplayGenerators();

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kodo-session-exit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A session worth proposing from (two prompts answered) whose model notes when it is called. */
function sessionWithHistory(order: string[]) {
  const model = new FakeContentGenerator([
    {
      method: 'generateContent',
      response: {
        candidates: [{ content: { role: 'model', parts: [{ text: '["The project uses pnpm."]' }] } }],
      },
    },
  ]);
  const generateContent = model.generateContent.bind(model);
  model.generateContent = (request, signal) => {
    order.push('proposal call');
    return generateContent(request, signal);
  };
  return new Session({
    generator: model,
    model: 'm',
    tools: new ToolRegistry([]),
    toolContext: { workspace: new Workspace({ roots: [dir] }), env: {}, shellInactivityTimeoutMs: 1000 },
    history: [
      { role: 'user', parts: [{ text: 'we use pnpm here' }] },
      { role: 'model', parts: [{ text: 'Noted.' }] },
      { role: 'user', parts: [{ text: 'run the tests' }] },
      { role: 'model', parts: [{ text: 'Done.' }] },
    ],
  });
}

describe('the end of an interactive run', () => {
  it("makes auto-memory's model call before the runtime closes (so its usage is counted and exported)", async () => {
    const order: string[] = [];
    const session = sessionWithHistory(order);
    const stdout = new PassThrough();
    let written = '';
    stdout.on('data', (chunk: Buffer) => {
      written += chunk.toString();
    });
    await endInteractiveRun({
      runtime: {
        close: async () => {
          order.push('runtime closed');
        },
      },
      session,
      proposeMemories: true,
      where: { kodoHome: dir, projectRoot: dir },
      stdout,
    });
    expect(order).toEqual(['proposal call', 'runtime closed']);
    // The call is one the session counted, under its own role.
    expect(session.statsSnapshot().models.m?.api.totalRequests).toBe(1);
    const [file] = readdirSync(join(dir, 'memory-inbox'));
    const inbox = JSON.parse(readFileSync(join(dir, 'memory-inbox', file!), 'utf8')) as { fact: string }[];
    expect(inbox.map((entry) => entry.fact)).toEqual(['The project uses pnpm.']);
    expect(written).toContain('1 proposed memory waits in the inbox');
  });

  it('closes the runtime without a call when auto-memory is off', async () => {
    const order: string[] = [];
    await endInteractiveRun({
      runtime: {
        close: async () => {
          order.push('runtime closed');
        },
      },
      session: sessionWithHistory(order),
      proposeMemories: false,
      where: { kodoHome: dir, projectRoot: dir },
      stdout: new PassThrough(),
    });
    expect(order).toEqual(['runtime closed']);
  });
});
