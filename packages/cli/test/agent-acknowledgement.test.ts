import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgentsCommand } from '../src/commands/agents';
import { acknowledgeAgentsOnTerminal } from '../src/ui/agent-acknowledgement';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

function setup() {
  ws = createTempWorkspace({
    'project/.kodo/agents/fixer.md': '---\nname: fixer\ndescription: Fixes\n---\nFix.\n',
    'project/.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews\n---\nReview.\n',
  });
  const cwd = join(ws.root, 'project');
  const env = {
    HOME: join(ws.root, 'home'),
    KODO_HOME: join(ws.root, 'home/.kodo'),
    GEMINI_CLI_HOME: join(ws.root, 'home'),
    KODO_TRUST_WORKSPACE: 'true',
  };
  const ask = async (answer: string | undefined, trusted = true) => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => (shown += chunk));
    const done = acknowledgeAgentsOnTerminal({ cwd, env, trusted, input, output });
    setTimeout(() => (answer === undefined ? input.end() : input.write(`${answer}\n`)), 20);
    await done;
    return shown;
  };
  const agents = async (...args: string[]) => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk) => (out += chunk));
    stderr.on('data', (chunk) => (err += chunk));
    const code = await runAgentsCommand({ args, cwd, env, stdout, stderr });
    return { code, out, err };
  };
  return { ask, agents };
}

describe('acknowledging project agents', () => {
  it('asks before the UI starts; no (or no answer) leaves them pending, yes records them', async () => {
    const { ask, agents } = setup();
    const shown = await ask('n');
    expect(shown).toContain('  * fixer (.kodo/agents/fixer.md)');
    expect(shown).toContain('  * reviewer (.claude/agents/reviewer.md)');
    expect(shown).toContain('Enable them? [y/N]');
    expect(shown).toContain('Not enabled in this session');
    expect((await ask(undefined)).toString()).toContain('Not enabled in this session');
    expect((await agents('list')).out).toContain(
      '? reviewer (.claude/agents/reviewer.md): new or changed, not loaded',
    );
    expect(await ask('y')).toContain('Enabled.');
    // Nothing left to ask about.
    expect(await ask('y')).toBe('');
    expect((await agents('list')).out).toBe(
      '✓ fixer (.kodo/agents/fixer.md)\n✓ reviewer (.claude/agents/reviewer.md)\n',
    );
  });

  it('asks nothing in an untrusted folder (its agents do not load)', async () => {
    const { ask } = setup();
    expect(await ask('y', false)).toBe('');
  });

  it('kodo agents acknowledge: the named ones, or all; an unknown name is an error', async () => {
    const { agents } = setup();
    const unknown = await agents('acknowledge', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No project agent named nobody.');
    const one = await agents('acknowledge', 'reviewer');
    expect(one.out).toBe('Acknowledged reviewer (.claude/agents/reviewer.md).\n');
    expect((await agents('list')).out).toContain('? fixer');
    expect((await agents('acknowledge')).out).toBe('Acknowledged fixer (.kodo/agents/fixer.md).\n');
    expect((await agents('acknowledge')).out).toBe('Every project agent is already acknowledged.\n');
  });
});
