import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { askUserTool } from '../../src/tools/builtin/ask-user';
import type { AskUserQuestion, ToolContext } from '../../src/tools/tool';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());
const signal = new AbortController().signal;
const choice = {
  question: 'Which?',
  header: 'Pick',
  options: [
    { label: 'A', description: 'a' },
    { label: 'B', description: 'b' },
  ],
};

describe('ask_user', () => {
  it('returns the answers by question index', async () => {
    ws = createTempWorkspace();
    const asked: AskUserQuestion[][] = [];
    const ctx: ToolContext = {
      ...ws.ctx,
      askUser: async (questions) => {
        asked.push([...questions]);
        return { '0': 'B', '1': 'soon' };
      },
    };
    const built = askUserTool.build(
      { questions: [choice, { question: 'When?', header: 'When', type: 'text' }] },
      ctx,
    );
    if (!built.ok) throw new Error(built.error.message);
    const result = await built.invocation.execute({ signal });
    expect(result.llmContent).toBe('{"answers":{"0":"B","1":"soon"}}');
    expect(asked[0]?.[0]).toMatchObject({ type: 'choice', header: 'Pick' });
  });

  it('reports a dismissal, and fails without anyone to ask', async () => {
    ws = createTempWorkspace();
    const dismissed = askUserTool.build(
      { questions: [choice] },
      { ...ws.ctx, askUser: async () => undefined },
    );
    if (!dismissed.ok) throw new Error(dismissed.error.message);
    expect((await dismissed.invocation.execute({ signal })).llmContent).toBe(
      'User dismissed ask_user dialog without answering.',
    );
    const nobody = askUserTool.build({ questions: [choice] }, ws.ctx);
    if (!nobody.ok) throw new Error(nobody.error.message);
    expect((await nobody.invocation.execute({ signal })).error?.type).toBe('execution_failed');
  });

  it('validates questions with the messages models know', () => {
    ws = createTempWorkspace();
    const error = (questions: unknown[]) => {
      const built = askUserTool.build({ questions }, ws!.ctx);
      return built.ok ? undefined : built.error.message;
    };
    expect(error([])).toBe('At least one question is required.');
    expect(error([{ question: 'q', header: 'h' }])).toBe(
      "Question 1: type='choice' requires 'options' array with 2-4 items.",
    );
    const five = Array.from({ length: 5 }, (_, i) => ({ label: `o${i}`, description: '' }));
    expect(error([{ question: 'q', header: 'h', options: five }])).toBe(
      "Question 1: 'options' array must have at most 4 items.",
    );
    expect(
      error([
        {
          question: 'q',
          header: 'h',
          options: [
            { label: ' ', description: '' },
            { label: 'x', description: '' },
          ],
        },
      ]),
    ).toBe("Question 1, option 1: 'label' is required and must be a non-empty string.");
  });
});
