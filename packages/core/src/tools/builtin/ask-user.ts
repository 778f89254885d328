import * as z from 'zod';
import { defineTool } from '../define-tool';
import type { AskUserQuestion, ToolError } from '../tool';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['askUser'] as const;

const parameters = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().describe('The question, complete and specific.'),
        header: z.string().describe('A short label for the question (a few words).'),
        type: z
          .enum(['choice', 'text', 'yesno'])
          .optional()
          .describe('choice (the default): pick from options; text: free answer; yesno: yes or no.'),
        options: z
          .array(z.object({ label: z.string(), description: z.string() }))
          .optional()
          .describe('For choice: 2 to 4 options. The person may always answer in their own words instead.'),
        multiSelect: z.boolean().optional().describe('For choice: several options may be picked.'),
        placeholder: z.string().optional().describe('For text: a hint shown in the empty answer box.'),
      }),
    )
    .describe('1 to 4 questions, asked together.'),
});

type Params = z.infer<typeof parameters>;

/**
 * `ask_user`: puts questions to the person when the task cannot go on without their decision.
 * Only declared where someone can answer (the interactive UI); headless runs never offer it.
 */
export const askUserTool = defineTool({
  name: 'ask_user',
  uses: USES,
  displayName: 'Ask User',
  kind: 'communicate',
  description:
    'Asks the user one to four questions and returns their answers. Use it only when you cannot proceed well without a decision or information only the user has (a choice between approaches, a missing requirement); do not ask what you can find out with the other tools.',
  parameters,
  validate: validateQuestions,
  describe: (params) => params.questions.map((question) => question.header).join(', '),
  async execute(params, ctx, options) {
    if (!ctx.askUser) {
      const message = 'Nobody can answer questions in this session.';
      return { llmContent: message, returnDisplay: message, error: { type: 'execution_failed', message } };
    }
    const questions: AskUserQuestion[] = params.questions.map((question) => ({
      question: question.question,
      header: question.header,
      type: question.type ?? 'choice',
      ...(question.options ? { options: question.options } : {}),
      ...(question.multiSelect !== undefined ? { multiSelect: question.multiSelect } : {}),
      ...(question.placeholder !== undefined ? { placeholder: question.placeholder } : {}),
    }));
    const answers = await ctx.askUser(questions, options.signal);
    if (!answers) {
      const text = 'User dismissed ask_user dialog without answering.';
      return { llmContent: text, returnDisplay: text };
    }
    return {
      llmContent: JSON.stringify({ answers }),
      returnDisplay: questions
        .map((question, index) => `${question.header}: ${answers[String(index)] ?? ''}`)
        .join('\n'),
    };
  },
});

function validateQuestions(params: Params): ToolError | undefined {
  const fail = (message: string): ToolError => ({ type: 'invalid_tool_params', message });
  if (params.questions.length === 0) return fail('At least one question is required.');
  if (params.questions.length > 4) return fail('At most 4 questions may be asked at once.');
  for (const [index, question] of params.questions.entries()) {
    const type = question.type ?? 'choice';
    const options = question.options ?? [];
    if (type === 'choice' && options.length < 2) {
      return fail(`Question ${index + 1}: type='choice' requires 'options' array with 2-4 items.`);
    }
    if (options.length > 4) return fail(`Question ${index + 1}: 'options' array must have at most 4 items.`);
    for (const [optionIndex, option] of options.entries()) {
      if (option.label.trim() === '') {
        return fail(
          `Question ${index + 1}, option ${optionIndex + 1}: 'label' is required and must be a non-empty string.`,
        );
      }
    }
  }
  return undefined;
}
