import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTodosTool } from '../../src/tools/builtin/write-todos';
import type { TodoItem, ToolContext } from '../../src/tools/tool';
import { buildError, runTool, text } from './helpers';

let ws: TempWorkspace;
let stored: TodoItem[];
let ctx: ToolContext;
beforeEach(() => {
  ws = createTempWorkspace();
  stored = [];
  ctx = { ...ws.ctx, todos: { get: () => stored, set: (items) => (stored = items) } };
});
afterEach(() => ws.cleanup());

describe('write_todos', () => {
  it('replaces the session list and reports it numbered with statuses', async () => {
    const todos: TodoItem[] = [
      { description: 'Read the parser', status: 'completed' },
      { description: 'Fix the bug', status: 'in_progress' },
      { description: 'Add a test', status: 'pending' },
      { description: 'Update docs', status: 'blocked' },
      { description: 'Old idea', status: 'cancelled' },
    ];
    const result = await runTool(writeTodosTool, { todos }, ctx);
    expect(text(result)).toBe(
      'Successfully updated the todo list. The current list is now:\n' +
        '1. [completed] Read the parser\n2. [in_progress] Fix the bug\n3. [pending] Add a test\n' +
        '4. [blocked] Update docs\n5. [cancelled] Old idea',
    );
    expect(stored).toEqual(todos);
    expect(result.returnDisplay).toBe(
      '☑ Read the parser\n▶ Fix the bug\n☐ Add a test\n⊘ Update docs\n✗ Old idea',
    );
  });

  it('clears the list with an empty array', async () => {
    stored = [{ description: 'x', status: 'pending' }];
    const result = await runTool(writeTodosTool, { todos: [] }, ctx);
    expect(text(result)).toBe('Successfully cleared the todo list.');
    expect(stored).toEqual([]);
  });

  it('allows at most one task in progress', () => {
    const todos = [
      { description: 'a', status: 'in_progress' },
      { description: 'b', status: 'in_progress' },
    ];
    expect(buildError(writeTodosTool, { todos }, ctx)).toEqual({
      type: 'invalid_tool_params',
      message: 'Invalid parameters: Only one task can be "in_progress" at a time.',
    });
  });

  it('rejects empty descriptions, unknown statuses and extra fields', () => {
    const error = (todo: Record<string, unknown>) =>
      buildError(writeTodosTool, { todos: [todo] }, ctx)?.message;
    expect(error({ description: '', status: 'pending' })).toMatch(/^params\/todos\/0\/description /);
    expect(error({ description: '  ', status: 'pending' })).toBe(
      'params/todos/0/description must be a non-empty string',
    );
    expect(error({ description: 'a', status: 'done' })).toMatch(/^params\/todos\/0\/status /);
    expect(error({ description: 'a', status: 'pending', priority: 1 })).toBe(
      'params/todos/0 must NOT have additional properties: priority',
    );
    expect(buildError(writeTodosTool, {}, ctx)?.message).toBe("params must have required property 'todos'");
  });
});
