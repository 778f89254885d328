import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCompletionCommand } from '../src/commands/completion';

function completion(args: string[]): { code: number; stdout: string; stderr: string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const code = runCompletionCommand({ args, stdout, stderr });
  return { code, stdout: out, stderr: err };
}

/** What bash completes for the words typed so far (the last one being completed). */
function bashComplete(typed: string[]): string[] {
  const script = completion(['bash']).stdout;
  const words = typed.map((word) => `'${word}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `${script}\nCOMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; _kodo; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter(Boolean);
}

describe('kodo completion', () => {
  it('completes subcommands, their actions, flags and flag values in bash', () => {
    expect(bashComplete(['kodo', 'ext'])).toEqual(['extensions']);
    expect(bashComplete(['kodo', 'mcp', ''])).toEqual(['add', 'remove', 'list', 'auth', 'serve']);
    expect(bashComplete(['kodo', '--approval-mode', 'a'])).toEqual(['auto_edit']);
    expect(bashComplete(['kodo', '--output-f'])).toEqual(['--output-format']);
    expect(bashComplete(['kodo', '-p', 'x', '--all'])).toEqual([
      '--allowed-mcp-server-names',
      '--allowed-tools',
    ]);
  });

  it('writes zsh and fish scripts that name every subcommand', () => {
    const zsh = completion(['zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef kodo\n/);
    expect(zsh.stdout).toContain("'(-m --model)'{-m,--model}'[model]:value:'");
    const fish = completion(['fish']);
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain('complete -c kodo -l approval-mode -x -a "default auto_edit yolo plan"');
    for (const command of ['doctor', 'completion', 'extensions']) {
      expect(zsh.stdout).toContain(command);
      expect(fish.stdout).toContain(`-a ${command}`);
    }
  });

  it('answers --help on stdout with exit 0, and refuses an unknown shell in one line', () => {
    expect(completion(['--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Usage: kodo completion'),
    });
    const unknown = completion(['tcsh']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split('\n').at(-1)).toBe('Unknown shell: tcsh');
  });
});
