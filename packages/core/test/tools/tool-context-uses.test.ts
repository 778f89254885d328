import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as builtin from '../../src/tools/builtin/index';
import { defineTool } from '../../src/tools/define-tool';
import type { AgentInvoker, Tool, ToolContext } from '../../src/tools/tool';
import { Workspace } from '../../src/tools/workspace';
import { runTool, text } from './helpers';

const context = (): ToolContext => ({
  workspace: new Workspace({ roots: [process.cwd()] }),
  env: { SECRET_SOUNDING: 'x' },
  shellInactivityTimeoutMs: 1000,
  askUser: async () => ({ '0': 'yes' }),
});

/** A tool that reports which parts of its context it can see. */
const probe = (uses?: readonly (keyof ToolContext)[]) =>
  defineTool({
    name: 'probe',
    displayName: 'Probe',
    kind: 'other',
    description: 'Reports what it sees.',
    parameters: z.object({}),
    ...(uses ? { uses } : {}),
    describe: () => 'probe',
    async execute(_params, ctx) {
      const seen = ctx as Partial<ToolContext>;
      const present = ['workspace', 'env', 'askUser', 'agents', 'shellInactivityTimeoutMs'].filter(
        (key) => seen[key as keyof ToolContext] !== undefined,
      );
      return { llmContent: present.join(','), returnDisplay: '' };
    },
  });

describe("what a tool sees of the session's context", () => {
  it('shows a tool only the services and settings it declared', async () => {
    expect(text(await runTool(probe(['workspace']), {}, context()))).toBe('workspace');
    expect(text(await runTool(probe(['env', 'askUser']), {}, context()))).toBe('env,askUser');
  });

  it('reads through to the context, so services the session fills in later are seen', async () => {
    const ctx = context();
    const built = probe(['agents']).build({}, ctx);
    if (!built.ok) throw new Error(built.error.message);
    ctx.agents = {
      list: () => [],
      invoke: async () => ({ llmContent: '', returnDisplay: '' }),
    } as AgentInvoker;
    const result = await built.invocation.execute({ signal: new AbortController().signal });
    expect(text(result)).toBe('agents');
  });

  it('shows a tool without a declaration (an extension, a test) the whole context', async () => {
    expect(text(await runTool(probe(), {}, context()))).toBe(
      'workspace,env,askUser,shellInactivityTimeoutMs',
    );
  });

  it('has every built-in tool declare what it uses', () => {
    const tools = Object.values(builtin).filter(
      (value): value is Tool => typeof value === 'object' && value !== null && 'build' in value,
    );
    expect(tools.length).toBeGreaterThan(15);
    const undeclared = tools.filter((tool) => !tool.uses || tool.uses.length === 0).map((tool) => tool.name);
    expect(undeclared).toEqual([]);
    // Narrow on purpose: nothing that only reads files can start processes or ask the person.
    const readFile = tools.find((tool) => tool.name === 'read_file');
    expect(readFile?.uses).not.toContain('shell');
    expect(readFile?.uses).not.toContain('askUser');
  });
});
