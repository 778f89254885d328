import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runKodo } from '@kodo/testkit';
import { beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

// The project directory has a space and a quote in its name: hook commands get it substituted
// into `$KODO_PROJECT_DIR` / `$GEMINI_PROJECT_DIR` and must still find their scripts.
const dirs = e2eDirs({ workspaceName: "my project's dir" });
beforeEach(() => mkdirSync(join(dirs.workspace, '.kodo')));

// The workspace is a fresh temp folder: trusted explicitly, or headless kodo would refuse it.
const kodo = (args: string[]) =>
  runKodo(args, { cwd: dirs.workspace, env: { KODO_HOME: dirs.home, KODO_TRUST_WORKSPACE: 'true' } });

const write = (relative: string, text: string) => {
  mkdirSync(join(dirs.workspace, relative, '..'), { recursive: true });
  writeFileSync(join(dirs.workspace, relative), text);
};
const projectSettings = (value: unknown) => write('.kodo/settings.json', JSON.stringify(value, null, 2));
const command = (hooks: Record<string, unknown>[]) => [
  { hooks: hooks.map((hook) => ({ type: 'command', ...hook })) },
];

/** A fake-responses file: each entry one model turn. */
function fakeResponses(...turns: Record<string, unknown>[][]): string {
  const lines = turns.map((parts) =>
    JSON.stringify({
      method: 'generateContentStream',
      response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }],
    }),
  );
  write('fake.jsonl', `${lines.join('\n')}\n`);
  return join(dirs.workspace, 'fake.jsonl');
}

/** The requests kodo sent, from its `--debug` log. */
function sentRequests(): { contents: { role: string; parts: Record<string, unknown>[] }[] }[] {
  const logs = join(dirs.home, 'logs');
  const file = readdirSync(logs).find((name) => name.startsWith('debug-'))!;
  return readFileSync(join(logs, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.event === 'request')
    .map((entry) => entry.request);
}

/** A node hook script that appends its input to `<name>.jsonl` and prints `output(input)`. */
function nodeHook(name: string, output: string): string {
  write(
    `hooks/${name}.mjs`,
    `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.env.KODO_PROJECT_DIR + '/${name}.jsonl', JSON.stringify(input) + '\\n');
const output = ${output};
if (output !== undefined) process.stdout.write(JSON.stringify(output));
`,
  );
  return `node "$KODO_PROJECT_DIR/hooks/${name}.mjs"`;
}
const hookInputs = (name: string) =>
  readFileSync(join(dirs.workspace, `${name}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('hooks through the built kodo', () => {
  it('a BeforeTool hook denies run_shell_command: the model sees why, nothing runs', async () => {
    projectSettings({
      hooks: {
        BeforeTool: [
          {
            matcher: 'run_shell_command',
            hooks: [
              {
                type: 'command',
                command: nodeHook(
                  'deny',
                  `{ decision: 'deny', reason: 'no shell today: ' + input.tool_input.command }`,
                ),
              },
            ],
          },
        ],
      },
    });
    const fake = fakeResponses(
      [{ functionCall: { name: 'run_shell_command', args: { command: 'touch ran.txt' } } }],
      [{ text: 'Understood.' }],
    );
    const run = await kodo(['-p', 'make a file', '-y', '-d', '--fake-responses', fake]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Understood.\n');
    expect(existsSync(join(dirs.workspace, 'ran.txt'))).toBe(false);
    expect(run.stderr).toContain(
      'Error executing tool run_shell_command: Tool execution blocked: no shell today: touch ran.txt',
    );
    const response = sentRequests()[1]!.contents.at(-1)!.parts[0]!.functionResponse as { response: unknown };
    expect(response.response).toEqual({ error: 'Tool execution blocked: no shell today: touch ran.txt' });
    expect(hookInputs('deny')[0]).toMatchObject({
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      cwd: dirs.workspace,
    });
    // The session log kodo writes, which hooks may read.
    const transcript = hookInputs('deny')[0]!.transcript_path as string;
    expect(transcript.startsWith(dirs.home)).toBe(true);
    expect(readFileSync(transcript, 'utf8')).toContain('make a file');
  });

  it("a BeforeTool hook rewrites write_file's file_path; the model is told", async () => {
    projectSettings({
      hooks: {
        BeforeTool: [
          {
            matcher: 'write_file',
            hooks: [
              {
                type: 'command',
                command: nodeHook(
                  'redirect',
                  `{ hookSpecificOutput: { tool_input: { file_path: 'sandbox/' + input.tool_input.file_path } } }`,
                ),
              },
            ],
          },
        ],
      },
    });
    const fake = fakeResponses(
      [{ functionCall: { name: 'write_file', args: { file_path: 'notes.txt', content: 'hello\n' } } }],
      [{ text: 'Wrote it.' }],
    );
    const run = await kodo(['-p', 'write notes', '-y', '-d', '--fake-responses', fake]);
    expect(run.code).toBe(0);
    expect(existsSync(join(dirs.workspace, 'notes.txt'))).toBe(false);
    expect(readFileSync(join(dirs.workspace, 'sandbox/notes.txt'), 'utf8')).toBe('hello\n');
    const response = sentRequests()[1]!.contents.at(-1)!.parts[0]!.functionResponse as {
      response: { output: string };
    };
    expect(response.response.output).toContain(
      '[System] Tool input parameters were modified by a hook before execution.',
    );
  });

  it('an AfterAgent hook denies once, then allows: two prompts, stop_hook_active the second time', async () => {
    projectSettings({
      hooks: {
        AfterAgent: command([
          {
            command: nodeHook(
              'review',
              `input.stop_hook_active ? {} : { decision: 'deny', reason: 'Please also say goodbye.' }`,
            ),
          },
        ]),
      },
    });
    const fake = fakeResponses([{ text: 'Hello.' }], [{ text: 'Goodbye.' }]);
    const run = await kodo(['-p', 'greet me', '-d', '--fake-responses', fake]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Hello.\nGoodbye.\n');
    expect(run.stderr).toContain('[WARNING] Agent execution blocked: Please also say goodbye.');
    const requests = sentRequests();
    expect(requests).toHaveLength(2);
    expect(requests[1]!.contents.at(-1)).toEqual({
      role: 'user',
      parts: [{ text: 'Please also say goodbye.' }],
    });
    expect(
      hookInputs('review').map((input) => [input.prompt, input.prompt_response, input.stop_hook_active]),
    ).toEqual([
      ['greet me', 'Hello.', false],
      ['greet me', 'Goodbye.', true],
    ]);
  });

  it('SessionStart context is context ahead of the prompt, as in the terminal UI and ACP; SessionEnd runs before kodo exits; json output keeps the final answer', async () => {
    writeFileSync(
      join(dirs.home, 'settings.json'),
      JSON.stringify({
        hooks: {
          SessionStart: [
            {
              matcher: 'startup',
              hooks: [
                {
                  type: 'command',
                  command: `echo '{"hookSpecificOutput":{"additionalContext":"Team rule: <be kind>"}}'`,
                },
              ],
            },
          ],
          SessionEnd: command([{ command: nodeHook('end', 'undefined') }]),
        },
      }),
    );
    projectSettings({
      hooks: {
        AfterAgent: command([
          {
            command: nodeHook('once', `input.stop_hook_active ? {} : { decision: 'block', reason: 'More.' }`),
          },
        ]),
      },
    });
    const fake = fakeResponses([{ text: 'First.' }], [{ text: 'Final.' }]);
    const run = await kodo(['-p', 'hi', '-o', 'json', '-d', '--fake-responses', fake]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.response).toBe('Final.');
    expect(result.warnings).toEqual(['Agent execution blocked: More.']);
    // The same first message as the terminal UI and ACP send (addContext, then the prompt): the
    // hook's context is a part of its own, the prompt stays as typed.
    const first = sentRequests()[0]!.contents[0]!.parts;
    expect(first[0]!.text).toBe('<hook_context>Team rule: &lt;be kind&gt;</hook_context>');
    expect(first.at(-1)!.text).toBe('hi');
    expect(hookInputs('end')).toMatchObject([{ hook_event_name: 'SessionEnd', reason: 'exit' }]);
  });

  it('a hook that hangs is killed at its timeout; one that fails is reported; the run goes on', async () => {
    projectSettings({
      hooks: {
        BeforeAgent: command([
          { command: 'sleep 30', name: 'sleepy', timeout: 300 },
          { command: 'echo "garbage{"; exit 1', name: 'broken' },
        ]),
      },
    });
    const fake = fakeResponses([{ text: 'Still here.' }]);
    const started = Date.now();
    const run = await kodo(['-p', 'hi', '--fake-responses', fake]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Still here.\n');
    expect(run.stderr).toContain('[WARNING] Hook "sleepy" (BeforeAgent) failed: Hook timed out after 300ms');
    expect(run.stderr).toContain('[INFO] Warning: garbage{');
  });
});

describe('kodo hooks list|enable|disable', () => {
  it('lists hooks and toggles hooksConfig.disabled in the user settings, keeping the file', async () => {
    const userSettings = join(dirs.home, 'settings.json');
    writeFileSync(
      userSettings,
      `{
  // my settings
  "model": { "name": "gemini-2.5-flash" },
  "hooks": { "BeforeAgent": [{ "hooks": [{ "type": "command", "command": "${nodeHook('marker', 'undefined').replace(/"/g, '\\"')}", "name": "marker" }] }] }
}
`,
    );
    projectSettings({
      hooks: {
        AfterTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'true', name: 'fmt' }] }],
      },
    });

    const list = await kodo(['hooks', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('BeforeAgent\n  [enabled]  marker (user, timeout 60000ms)');
    expect(list.stdout).toContain(
      'AfterTool\n  [enabled]  fmt (project, matcher write_file, timeout 60000ms)',
    );

    const disable = await kodo(['hooks', 'disable', 'marker']);
    expect(disable.code).toBe(0);
    expect(disable.stdout).toContain('Disabled hook "marker"');
    const edited = readFileSync(userSettings, 'utf8');
    expect(edited).toContain('// my settings');
    expect(edited).toContain('"name": "gemini-2.5-flash"');
    expect((await kodo(['hooks', 'list'])).stdout).toContain('[disabled] marker');

    const fake = fakeResponses([{ text: 'ok' }]);
    await kodo(['-p', 'hi', '--fake-responses', fake]);
    expect(existsSync(join(dirs.workspace, 'marker.jsonl'))).toBe(false);

    expect((await kodo(['hooks', 'enable', 'marker'])).code).toBe(0);
    await kodo(['-p', 'hi', '--fake-responses', fake]);
    expect(hookInputs('marker')).toHaveLength(1);

    const unknown = await kodo(['hooks', 'disable', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('No hook named "nope". Configured hooks: "marker", "fmt".');
  });
});
