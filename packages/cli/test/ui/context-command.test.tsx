import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderContextBreakdown } from '../../src/ui/commands/context-command';
import { finish, KEYS, renderApp, text } from './helpers';

type Harness = ReturnType<typeof renderApp>;
let app: Harness | undefined;
afterEach(() => {
  app?.cleanup();
  app = undefined;
});
const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

describe('/context', () => {
  it('renders each source with its tokens and share of the window, then what is free', () => {
    const body = renderContextBreakdown({
      model: 'gemini-2.5-pro',
      window: 1_000_000,
      total: 25_000,
      measured: 24_000,
      sources: [
        { label: 'system prompt', tokens: 5_000 },
        { label: 'MCP server github', tokens: 10_000 },
        { label: 'history', tokens: 10_000 },
      ],
    });
    expect(body).toContain(
      '**gemini-2.5-pro**: about 25k of 1M tokens (2.5%) would go with the next request (estimated). The provider counted 24k at the last request.',
    );
    expect(body).toContain('| system prompt | 5k | 0.5% |');
    expect(body).toContain('| MCP server github | 10k | 1.0% |');
    expect(body).toContain('| free | 975k | 97.5% |');
  });

  it('shows the live session’s breakdown in the UI, history growing after a prompt', async () => {
    const ui = renderApp({ turns: [{ chunks: [text('an answer of some length'), finish(4_321)] }] });
    app = ui;
    await ui.type('/context');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Share of window'));
    expect(ui.frame()).toMatch(/system prompt\s+│\s+[1-9][\d.]*k?\s+│\s+[\d.]+%/);
    expect(ui.frame()).toContain('tools (built-in)');
    expect(ui.frame()).toContain('free');
    await ui.type('hello');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('an answer of some length'));
    await ui.type('/context');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('provider counted 4.3k at the last request.'));
    expect(ui.frame()).toMatch(/history\s+│\s+0\s+│/);
    expect(ui.frame()).toMatch(/history\s+│\s+[1-9]\d*\s+│/);
  });
});
