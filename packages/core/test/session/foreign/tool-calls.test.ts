import { describe, expect, it } from 'vitest';
import { claudeToolCall, codexToolCall, geminiToolCall } from '../../../src/session/foreign/tool-calls';
import { BUILTIN_TOOL_SPECS } from '../../../src/tools/builtin/specs.generated';

/** Every mapped call must name a kodo tool and use only parameters that tool declares. */
function expectKodoCall(call: { name: string; args: Record<string, unknown> }) {
  const spec = BUILTIN_TOOL_SPECS.find((tool) => tool.name === call.name);
  expect(spec, call.name).toBeDefined();
  const properties = Object.keys((spec?.parametersJsonSchema.properties ?? {}) as object);
  for (const key of Object.keys(call.args)) expect(properties, `${call.name}.${key}`).toContain(key);
}

describe("Claude Code's tools", () => {
  it('map to kodo equivalents with their arguments renamed', () => {
    const cases: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
      [
        'Read',
        { file_path: '/p/a.ts', offset: 10, limit: 5 },
        'read_file',
        { file_path: '/p/a.ts', start_line: 10, end_line: 14 },
      ],
      ['Read', { file_path: '/p/a.ts', limit: 20 }, 'read_file', { file_path: '/p/a.ts', end_line: 20 }],
      ['Write', { file_path: '/p/b', content: 'x' }, 'write_file', { file_path: '/p/b', content: 'x' }],
      [
        'Edit',
        { file_path: '/p/c', old_string: 'a', new_string: 'b', replace_all: true },
        'replace',
        { file_path: '/p/c', old_string: 'a', new_string: 'b', allow_multiple: true },
      ],
      [
        'Bash',
        { command: 'npm test', description: 'Run tests', timeout: 1000, run_in_background: true },
        'run_shell_command',
        { command: 'npm test', description: 'Run tests', is_background: true },
      ],
      [
        'Grep',
        { pattern: 'foo', path: 'src', glob: '*.ts', '-i': true, output_mode: 'files_with_matches', '-C': 2 },
        'grep_search',
        {
          pattern: 'foo',
          dir_path: 'src',
          include_pattern: '*.ts',
          case_sensitive: false,
          names_only: true,
          context: 2,
        },
      ],
      ['Glob', { pattern: '**/*.md', path: 'docs' }, 'glob', { pattern: '**/*.md', dir_path: 'docs' }],
      ['LS', { path: '/p' }, 'list_directory', { dir_path: '/p' }],
      ['WebSearch', { query: 'kodo' }, 'web_search', { query: 'kodo' }],
      [
        'WebFetch',
        { url: 'https://e.x', prompt: 'Summarise' },
        'web_fetch',
        { prompt: 'Summarise https://e.x' },
      ],
      [
        'TodoWrite',
        { todos: [{ content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' }] },
        'write_todos',
        { todos: [{ description: 'Write tests', status: 'in_progress' }] },
      ],
    ];
    for (const [name, input, kodoName, args] of cases) {
      const call = claudeToolCall(name, input);
      expect(call, name).toEqual({ name: kodoName, args });
      expectKodoCall(call);
    }
  });

  it('keep any other tool as it was', () => {
    const input = { description: 'look around', prompt: 'find X', subagent_type: 'Explore' };
    expect(claudeToolCall('Agent', input)).toEqual({ name: 'Agent', args: input });
    expect(claudeToolCall('mcp__github__search', { q: 1 })).toEqual({
      name: 'mcp__github__search',
      args: { q: 1 },
    });
  });
});

describe("Codex's tools", () => {
  it('map shell calls to run_shell_command and the plan to write_todos', () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      [
        'exec_command',
        { cmd: 'ls -la', workdir: '/p', yield_time_ms: 1000 },
        { command: 'ls -la', dir_path: '/p' },
      ],
      [
        'shell',
        { command: ['bash', '-lc', 'npm test && echo ok'], workdir: '/p' },
        { command: 'npm test && echo ok', dir_path: '/p' },
      ],
      [
        'shell',
        { command: ['git', 'commit', '-m', "it's done"] },
        { command: `git commit -m 'it'\\''s done'` },
      ],
      ['shell_command', { command: 'pwd', workdir: '/q' }, { command: 'pwd', dir_path: '/q' }],
    ];
    for (const [name, args, expected] of cases) {
      const call = codexToolCall(name, args);
      expect(call, name).toEqual({ name: 'run_shell_command', args: expected });
      expectKodoCall(call);
    }
    const plan = codexToolCall('update_plan', {
      explanation: 'why',
      plan: [
        { step: 'Read the code', status: 'completed' },
        { step: 'Fix it', status: 'weird' },
      ],
    });
    expect(plan).toEqual({
      name: 'write_todos',
      args: {
        todos: [
          { description: 'Read the code', status: 'completed' },
          { description: 'Fix it', status: 'pending' },
        ],
      },
    });
    expectKodoCall(plan);
  });

  it("keep apply_patch, which is kodo's too, and keep other tools as they were", () => {
    const patch = codexToolCall('apply_patch', { input: '*** Begin Patch' });
    expect(patch).toEqual({ name: 'apply_patch', args: { input: '*** Begin Patch' } });
    expectKodoCall(patch);
    expect(codexToolCall('view_image', { path: 'a.png' })).toEqual({
      name: 'view_image',
      args: { path: 'a.png' },
    });
  });
});

describe("Gemini CLI's tools", () => {
  it("keep today's names and rename those of older versions", () => {
    expect(geminiToolCall('read_file', { file_path: 'a' })).toEqual({
      name: 'read_file',
      args: { file_path: 'a' },
    });
    const grep = geminiToolCall('search_file_content', { pattern: 'x', include: '*.ts' });
    expect(grep).toEqual({ name: 'grep_search', args: { pattern: 'x', include_pattern: '*.ts' } });
    const read = geminiToolCall('read_file', { absolute_path: '/p/a', offset: 0, limit: 10 });
    expect(read).toEqual({ name: 'read_file', args: { file_path: '/p/a', start_line: 1, end_line: 10 } });
    expectKodoCall(grep);
    expectKodoCall(read);
  });
});
