import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueuedPrompts } from '../../src/ui/components/queued-prompts';
import { call, finish, KEYS, renderApp, text } from './helpers';

type Harness = ReturnType<typeof renderApp>;
let app: Harness | undefined;
afterEach(() => {
  app?.cleanup();
  app = undefined;
});

const until = (check: () => void, timeout = 5_000) => vi.waitFor(check, { timeout, interval: 20 });

/** A first answer slow enough to type behind, then quick ones. */
const slowThenQuick = (...answers: string[]) => [
  {
    chunks: [text('slow 1. '), text('slow 2. '), text('slow 3. '), text('slow-done'), finish()],
    delayMs: 250,
  },
  ...answers.map((answer) => ({ chunks: [text(answer), finish()] })),
];

describe('type-ahead queue (Tab while a turn runs)', () => {
  it('queues prompts typed while a turn runs, shows them, and sends them in order when it ends', async () => {
    const ui = renderApp({ turns: slowThenQuick('answer two', 'answer three') });
    app = ui;
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow 1.'));
    await ui.type('two');
    await ui.press(KEYS.tab);
    await ui.type('three');
    await ui.press(KEYS.tab);
    await until(() => expect(ui.frame()).toContain('Queued (2)'));
    expect(ui.frame()).toMatch(/› two\n.*› three/);
    // Nothing was sent while the first turn ran.
    expect(ui.generator.requests).toHaveLength(1);
    await until(() => expect(ui.frame()).toContain('answer three'));
    const frame = ui.frame();
    expect(frame).not.toContain('Queued (');
    expect(frame.indexOf('slow-done')).toBeLessThan(frame.indexOf('> two'));
    expect(frame.indexOf('answer two')).toBeLessThan(frame.indexOf('> three'));
    const sent = ui.generator.requests.map((request) => {
      const user = request.contents.filter((content) => content.role === 'user').at(-1);
      return user?.parts.map((part) => part.text ?? '').join('');
    });
    expect(sent).toEqual(['one', 'two', 'three']);
    // Queued lines are in the input history like any typed line, in the order typed.
    expect(ui.history).toEqual(['one', 'two', 'three']);
  });

  it('Esc removes the newest queued prompt first and cancels the turn only once the queue is empty', async () => {
    const ui = renderApp({ turns: slowThenQuick('answer kept') });
    app = ui;
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow 1.'));
    await ui.type('kept');
    await ui.press(KEYS.tab);
    await ui.type('dropped');
    await ui.press(KEYS.tab);
    await until(() => expect(ui.frame()).toContain('Queued (2)'));
    await ui.press(KEYS.escape);
    await until(() => expect(ui.frame()).toContain('Queued (1)'));
    expect(ui.frame()).not.toContain('› dropped');
    expect(ui.frame()).not.toContain('Request cancelled');
    await until(() => expect(ui.frame()).toContain('answer kept'));
    expect(ui.frame()).toContain('slow-done');
    expect(ui.generator.requests).toHaveLength(2);
  });

  it('Esc with an empty queue still cancels the running request', async () => {
    const ui = renderApp({ turns: slowThenQuick() });
    app = ui;
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow 1.'));
    await ui.press(KEYS.escape);
    await until(() => expect(ui.frame()).toContain('Request cancelled'));
  });

  it('Ctrl+C stops the turn and drops what was queued behind it, saying so', async () => {
    const ui = renderApp({ turns: slowThenQuick('never sent') });
    app = ui;
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow 1.'));
    await ui.type('two');
    await ui.press(KEYS.tab);
    await ui.type('three');
    await ui.press(KEYS.tab);
    await until(() => expect(ui.frame()).toContain('Queued (2)'));
    await ui.press(KEYS.ctrlC);
    await until(() => expect(ui.frame()).toContain('Dropped 2 queued prompts.'));
    await until(() => expect(ui.frame()).toContain('Request cancelled'));
    expect(ui.frame()).not.toContain('Queued (');
    // Give a wrongly kept queue the time to send: nothing more reaches the model.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ui.generator.requests).toHaveLength(1);
    expect(ui.frame()).not.toContain('never sent');
  });

  it('runs a queued slash command through the same path as a typed one, in its place in the queue', async () => {
    const ui = renderApp({ turns: slowThenQuick('answer after') });
    app = ui;
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow 1.'));
    await ui.type('/nosuchcommand');
    await ui.press(KEYS.tab);
    await ui.type('after');
    await ui.press(KEYS.tab);
    await until(() => expect(ui.frame()).toContain('Queued (2)'));
    // An unknown command is reported when its turn comes, not sent to the model.
    expect(ui.frame()).not.toContain('Unknown command');
    await until(() => expect(ui.frame()).toContain('answer after'));
    const frame = ui.frame();
    expect(frame.indexOf('slow-done')).toBeLessThan(frame.indexOf('Unknown command: /nosuchcommand'));
    expect(frame.indexOf('Unknown command: /nosuchcommand')).toBeLessThan(frame.indexOf('> after'));
    expect(ui.generator.requests).toHaveLength(2);
  });
});

describe('steering (Enter while a turn runs)', () => {
  it('a line sent while the model works joins the next request, after the tool results', async () => {
    const ui = renderApp({
      approvalMode: 'yolo',
      turns: [
        {
          chunks: [
            text('looking. '),
            text('still looking. '),
            call('list_directory', { dir_path: '.' }),
            finish(),
          ],
          delayMs: 200,
        },
        { chunks: [text('steered answer'), finish()] },
      ],
    });
    app = ui;
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('looking.'));
    await ui.type('focus on src');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Steering (1)'));
    expect(ui.frame()).toContain('↳ focus on src');
    await until(() => expect(ui.frame()).toContain('steered answer'));
    expect(ui.generator.requests).toHaveLength(2);
    const last = ui.generator.requests[1]!.contents.at(-1)!;
    expect(last.parts.map((part) => (part.functionResponse ? 'tool result' : part.text))).toEqual([
      'tool result',
      'focus on src',
    ]);
    const frame = ui.frame();
    expect(frame).not.toContain('Steering (');
    // In the transcript the line sits after the tool call, before the answer it steered.
    expect(frame.indexOf('> focus on src')).toBeGreaterThan(frame.indexOf('still looking.'));
    expect(frame.indexOf('> focus on src')).toBeLessThan(frame.indexOf('steered answer'));
  });

  it('a turn that ends before another step sends the line as the next prompt, ahead of queued ones', async () => {
    const ui = renderApp({ turns: slowThenQuick('answer steered', 'answer queued') });
    app = ui;
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow 1.'));
    await ui.type('queued line');
    await ui.press(KEYS.tab);
    await ui.type('steered line');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Steering (1)'));
    expect(ui.frame()).toContain('Queued (1)');
    await until(() => expect(ui.frame()).toContain('answer queued'));
    const sent = ui.generator.requests.map((request) => {
      const user = request.contents.filter((content) => content.role === 'user').at(-1);
      return user?.parts.map((part) => part.text ?? '').join('');
    });
    expect(sent).toEqual(['one', 'steered line', 'queued line']);
  });

  it('Ctrl+C drops steering lines with the queue', async () => {
    const ui = renderApp({ turns: slowThenQuick('never sent') });
    app = ui;
    await ui.type('one');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('slow 1.'));
    await ui.type('steer me');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Steering (1)'));
    await ui.press(KEYS.ctrlC);
    await until(() => expect(ui.frame()).toContain('Dropped 1 queued prompt.'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ui.generator.requests).toHaveLength(1);
  });
});

describe('QueuedPrompts', () => {
  it('lists the waiting lines one per row, shell commands marked, nothing when empty', () => {
    const shown = render(
      <QueuedPrompts
        items={[
          { text: 'first\nsecond line', mode: 'prompt' },
          { text: 'ls -la', mode: 'shell' },
        ]}
        width={60}
      />,
    );
    expect(shown.lastFrame()).toContain('Queued (2)');
    expect(shown.lastFrame()).toContain('› first ⏎ second line');
    expect(shown.lastFrame()).toContain('! ls -la');
    shown.unmount();
    const steering = render(<QueuedPrompts items={[]} steering={['look at src\nfirst']} width={60} />);
    expect(steering.lastFrame()).toContain('Steering (1) · joins the turn after the current step');
    expect(steering.lastFrame()).toContain('↳ look at src ⏎ first');
    expect(steering.lastFrame()).not.toContain('Queued');
    steering.unmount();
    const empty = render(<QueuedPrompts items={[]} width={60} />);
    expect(empty.lastFrame()).toBe('');
    empty.unmount();
  });
});
