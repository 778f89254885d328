import * as z from 'zod';
import { defineTool } from '../define-tool';
import type { TodoItem, ToolError } from '../tool';

/** What of the session's context this tool uses (it sees nothing else). */
const USES = ['todos'] as const;

const STATUSES = ['pending', 'in_progress', 'completed', 'cancelled', 'blocked'] as const;

const parameters = z.object({
  todos: z
    .array(
      z.strictObject({
        description: z.string().min(1).describe('What the task is, in one line.'),
        status: z.enum(STATUSES).describe('The task status.'),
      }),
    )
    .describe('The complete list of todo items. This replaces the existing list.'),
});

type Params = z.infer<typeof parameters>;

/** Symbols for the person's view of the list; the model reads the bracketed status words. */
const STATUS_MARKS: Record<TodoItem['status'], string> = {
  pending: '☐',
  in_progress: '▶',
  completed: '☑',
  cancelled: '✗',
  blocked: '⊘',
};

export const writeTodosTool = defineTool({
  name: 'write_todos',
  uses: USES,
  displayName: 'WriteTodos',
  kind: 'other',
  description:
    'Keeps a todo list for the current task, to plan and track multi-step work. Each call replaces ' +
    'the whole list. Use it for complex requests with several steps, not for simple ones. Mark ' +
    'exactly one task in_progress while working on it, mark tasks completed as soon as they are ' +
    'done, cancelled when no longer needed and blocked when they cannot proceed. Send an empty ' +
    'list to clear it.',
  parameters,
  validate: validateTodos,
  describe: (params) =>
    params.todos.length === 0 ? 'Clear the todo list' : `Set ${params.todos.length} todo(s)`,
  async execute(params, ctx) {
    const items: TodoItem[] = params.todos.map(({ description, status }) => ({ description, status }));
    ctx.todos?.set(items);
    if (items.length === 0) {
      return { llmContent: 'Successfully cleared the todo list.', returnDisplay: 'Cleared the todo list.' };
    }
    const list = items.map((item, index) => `${index + 1}. [${item.status}] ${item.description}`).join('\n');
    return {
      llmContent: `Successfully updated the todo list. The current list is now:\n${list}`,
      returnDisplay: items.map((item) => `${STATUS_MARKS[item.status]} ${item.description}`).join('\n'),
    };
  },
});

function validateTodos(params: Params): ToolError | undefined {
  const blank = params.todos.findIndex((todo) => todo.description.trim() === '');
  if (blank !== -1) {
    return {
      type: 'invalid_tool_params',
      message: `params/todos/${blank}/description must be a non-empty string`,
    };
  }
  if (params.todos.filter((todo) => todo.status === 'in_progress').length > 1) {
    return {
      type: 'invalid_tool_params',
      message: 'Invalid parameters: Only one task can be "in_progress" at a time.',
    };
  }
  return undefined;
}
