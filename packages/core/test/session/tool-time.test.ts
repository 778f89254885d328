// `/stats` shows how long tools ran: the time a call waits for the person's approval is not
// the tool's, or a call left on screen over lunch would read as an hour of tool time.

import { describe, expect, it } from 'vitest';
import { FakeContentGenerator } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, stream, tempContext, testTools, text } from '../helpers';

const APPROVAL_WAIT_MS = 600;
const TOOL_MS = 40;

describe('tool time in the session stats', () => {
  it('excludes the time spent waiting for approval', async () => {
    const { ctx, cleanup } = tempContext();
    const [echo, edit] = testTools();
    let asked = 0;
    const session = new Session({
      generator: new FakeContentGenerator(
        [
          stream(calls({ name: 'edit_thing', args: { value: 'a' } })),
          stream(calls({ name: 'echo', args: { value: 'b', delay_ms: TOOL_MS } })),
          stream(text('done')),
        ],
        { strict: true },
      ),
      model: 'gemini-2.5-flash',
      tools: new ToolRegistry([edit!, echo!]),
      toolContext: ctx,
      includeEnvironmentContext: false,
      retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
      // A person who takes their time before allowing the edit.
      approvals: {
        interactive: true,
        confirm: async () => {
          asked += 1;
          await new Promise((resolve) => setTimeout(resolve, APPROVAL_WAIT_MS));
          return { outcome: 'proceed_once' };
        },
      },
    });
    try {
      await collect(session.sendMessage('go', new AbortController().signal));
      expect(asked).toBe(1);
      const byName = session.statsSnapshot().tools.byName;
      expect(byName.edit_thing?.success).toBe(1);
      // The edit itself is instant: all but the approval wait.
      expect(byName.edit_thing!.durationMs).toBeLessThan(APPROVAL_WAIT_MS / 2);
      // A tool that really takes time still counts it.
      expect(byName.echo!.durationMs).toBeGreaterThanOrEqual(TOOL_MS - 5);
    } finally {
      cleanup();
    }
  });
});
