import type { AskUserQuestion } from '@kodo/core/engine';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { QuestionDialog } from '../../src/ui/components/question-dialog';
import { type PendingQuestions, QuestionBridge } from '../../src/ui/question-bridge';
import { KEYS, sleep } from './helpers';

const RIGHT = '\u001b[C';

const db: AskUserQuestion = {
  question: 'Which database?',
  header: 'DB',
  type: 'choice',
  options: [
    { label: 'Postgres', description: 'server' },
    { label: 'SQLite', description: 'one file' },
  ],
};

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

/** The dialog around a real bridge: the promise is what the ask_user tool gets back. */
function ask(questions: AskUserQuestion[], signal = new AbortController().signal) {
  const bridge = new QuestionBridge();
  const answers = bridge.handler(questions, signal);
  const pending = bridge.current() as PendingQuestions;
  let cancels = 0;
  const ui = render(<QuestionDialog pending={pending} width={80} onCancelRequest={() => cancels++} />);
  unmount = ui.unmount;
  let settled: Record<string, string> | undefined | 'pending' = 'pending';
  void answers.then((value) => {
    settled = value;
  });
  return {
    bridge,
    answers,
    frame: () => ui.lastFrame() ?? '',
    settled: () => settled,
    cancels: () => cancels,
    async press(...keys: string[]) {
      for (const key of keys) {
        ui.stdin.write(key);
        await sleep(key === KEYS.escape ? 60 : 15);
      }
    },
  };
}

describe('the ask_user dialog', () => {
  it('shows the options and Other; arrows move, Enter chooses the selected option', async () => {
    const dialog = ask([db]);
    await sleep(10);
    expect(dialog.frame()).toContain('Which database?');
    expect(dialog.frame()).toMatch(/❯ 1\. Postgres — server/);
    expect(dialog.frame()).toContain('2. SQLite — one file');
    expect(dialog.frame()).toContain('3. Other: type your own answer');
    await dialog.press(KEYS.down);
    expect(dialog.frame()).toMatch(/❯ 2\. SQLite/);
    await dialog.press(KEYS.enter);
    expect(await dialog.answers).toEqual({ '0': 'SQLite' });
    expect(dialog.bridge.current()).toBeUndefined();
  });

  it('a number picks an option at once; up from the top wraps to Other, where typing is the answer', async () => {
    const picked = ask([db]);
    await sleep(10);
    await picked.press('2');
    expect(await picked.answers).toEqual({ '0': 'SQLite' });
    picked.bridge.current();
    unmount?.();

    const own = ask([db]);
    await sleep(10);
    await own.press(KEYS.up);
    expect(own.frame()).toMatch(/❯ 3\. Other:/);
    // While Other is selected, digits and letters are text, not choices.
    await own.press('M', 'y', 'S', 'Q', 'L', ' ', '8', 'x', KEYS.backspace);
    expect(own.frame()).toContain('Other: MySQL 8');
    expect(own.settled()).toBe('pending');
    await own.press(KEYS.enter);
    expect(await own.answers).toEqual({ '0': 'MySQL 8' });
  });

  it('Enter on an empty Other does nothing; Esc dismisses; Ctrl+C cancels the request', async () => {
    const dialog = ask([db]);
    await sleep(10);
    await dialog.press('3', KEYS.enter);
    expect(dialog.settled()).toBe('pending');
    await dialog.press(KEYS.ctrlC);
    expect(dialog.cancels()).toBe(1);
    await dialog.press(KEYS.escape);
    expect(await dialog.answers).toBeUndefined();
  });

  it('asks several questions together: chips, ←/→ between them, and the answers go back once all are given', async () => {
    const dialog = ask([
      db,
      { question: 'Deploy now?', header: 'Deploy', type: 'yesno' },
      { question: 'Name the service', header: 'Name', type: 'text', placeholder: 'e.g. billing' },
    ]);
    await sleep(10);
    expect(dialog.frame()).toContain(' DB ');
    expect(dialog.frame()).toContain(' Deploy ');
    expect(dialog.frame()).toContain(' Name ');
    await dialog.press(RIGHT);
    expect(dialog.frame()).toContain('Deploy now?');
    expect(dialog.frame()).toContain('1. Yes');
    expect(dialog.frame()).toContain('2. No');
    expect(dialog.frame()).toContain('3. Other');
    await dialog.press('2');
    // Answered questions get a tick; the dialog moves on to the next open one.
    expect(dialog.frame()).toContain('✓ Deploy');
    expect(dialog.frame()).toContain('Name the service');
    expect(dialog.frame()).toContain('e.g. billing');
    await dialog.press('b', 'i', 'l', 'l', 's', KEYS.enter);
    // The first question is still open: nothing is sent yet.
    expect(dialog.settled()).toBe('pending');
    expect(dialog.frame()).toContain('Which database?');
    await dialog.press('1');
    expect(await dialog.answers).toEqual({ '0': 'Postgres', '1': 'No', '2': 'bills' });
  });

  it('multiSelect: numbers and Space tick, Enter sends the ticked labels plus any own words', async () => {
    const dialog = ask([
      {
        question: 'Which checks?',
        header: 'Checks',
        type: 'choice',
        multiSelect: true,
        options: [
          { label: 'lint', description: '' },
          { label: 'types', description: '' },
          { label: 'tests', description: '' },
        ],
      },
    ]);
    await sleep(10);
    expect(dialog.frame()).toContain('[ ] lint');
    await dialog.press('3', KEYS.up, KEYS.up, ' ');
    expect(dialog.frame()).toContain('[x] lint');
    expect(dialog.frame()).toContain('[x] tests');
    expect(dialog.frame()).toContain('[ ] types');
    await dialog.press(KEYS.up, 'e', '2', 'e');
    await dialog.press(KEYS.enter);
    expect(await dialog.answers).toEqual({ '0': 'lint, tests, e2e' });
  });

  it('a cancelled turn dismisses the questions', async () => {
    const controller = new AbortController();
    const dialog = ask([db], controller.signal);
    controller.abort();
    expect(await dialog.answers).toBeUndefined();
    expect(dialog.bridge.current()).toBeUndefined();
  });
});
