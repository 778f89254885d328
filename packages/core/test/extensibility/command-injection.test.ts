import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomCommand } from '../../src/commands/definition';
import { CommandExpansionError, expandCommand, type TemplateServices } from '../../src/commands/expand';

/**
 * Issue N, class 1: a custom command's arguments (and what its shell steps and files print) are
 * data. Inside a shell step an argument is one literal word, whatever quotes surround the
 * placeholder; nothing substituted is scanned again for `!`…``, `@file`, `{{args}}` or `$N`.
 */

const signal = new AbortController().signal;
const command = (over: Partial<CustomCommand>): CustomCommand => ({
  name: 'c',
  baseName: 'c',
  description: '',
  format: 'markdown',
  template: '',
  path: '/c.md',
  scope: 'workspace',
  ...over,
});
const text = (parts: { text?: string }[]) => parts.map((part) => part.text ?? '').join('');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kodo-cmd-inject-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Services that record each shell step (run later in a real bash) and every file read. */
function recordingShell(log: { shell: string[]; reads: string[] }): TemplateServices {
  return {
    async runShell(line) {
      log.shell.push(line);
      return { output: '' };
    },
    async readPath(path) {
      log.reads.push(path);
      return [{ text: `<file ${path}>` }];
    },
  };
}

/** Runs each line in a real bash (one process, each line in a subshell of its own): the outputs. */
function runInBash(lines: readonly string[]): string[] {
  const script = 'for line in "$@"; do (eval "$line"); printf "\\0"; done';
  const output = execFileSync('bash', ['-c', script, 'bash', ...lines], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  return output.split('\0').slice(0, -1);
}

/** Arguments that would run `touch PWNED` (or read a file) if treated as code or template. */
const PAYLOADS = [
  '$(touch PWNED)',
  '`touch PWNED`',
  "'; touch PWNED; '",
  '"; touch PWNED; "',
  '\\"; touch PWNED #',
  'x\ntouch PWNED',
  "it's $'\\x27'; touch PWNED",
  '!{touch PWNED}',
  '!`touch PWNED`',
  '{{args}} $ARGUMENTS $0',
];

/** Placeholders in every quoting context a template author may put them in. */
const TOML_STEPS = [
  "!{printf '<%s>' {{args}}}",
  `!{printf '<%s>' "{{args}}"}`,
  `!{printf '<%s>' "pre {{args}} post"}`,
  "!{printf '<%s>' 'pre {{args}} post'}",
  "!{printf '<%s>' $'{{args}}'}",
  `!{printf '<%s>' "$(printf '%s' {{args}})"}`,
  `!{printf '<%s>' "$(printf '%s' "{{args}}")"}`,
];
const MARKDOWN_STEPS = [
  "!`printf '<%s>' $ARGUMENTS`",
  `!\`printf '<%s>' "$ARGUMENTS"\``,
  "!`printf '<%s>' 'x $ARGUMENTS y'`",
  '```!\nprintf \'<%s>\' "$ARGUMENTS"\n```',
  "```!\nprintf '<%s>' \"$(printf '%s' $ARGUMENTS)\"\n```",
];

/** What a step prints around the argument: `pre … post` and `x … y` where the template says so. */
const around = (step: string) => (payload: string) =>
  step.includes('pre ') ? `pre ${payload} post` : step.includes("'x ") ? `x ${payload} y` : payload;

/** Expands the step with each payload, runs the lines in bash: each prints `<payload>`, nothing else runs. */
async function expectLiteral(
  over: Partial<CustomCommand>,
  around: (payload: string) => string = (payload) => payload,
): Promise<void> {
  const log = { shell: [] as string[], reads: [] as string[] };
  for (const payload of PAYLOADS) {
    await expandCommand(command(over), payload, recordingShell(log), signal);
  }
  expect(log.shell).toHaveLength(PAYLOADS.length);
  const outputs = runInBash(log.shell);
  expect(existsSync(join(dir, 'PWNED')), log.shell.join('\n---\n')).toBe(false);
  expect(outputs).toEqual(PAYLOADS.map((payload) => `<${around(payload)}>`));
}

describe('custom-command arguments in shell steps', () => {
  for (const step of TOML_STEPS) {
    it(`TOML ${step}: every payload stays one literal word and runs nothing`, async () => {
      await expectLiteral({ format: 'toml', template: step }, around(step));
    });
  }

  for (const step of MARKDOWN_STEPS) {
    it(`Markdown ${JSON.stringify(step)}: every payload stays one literal word and runs nothing`, async () => {
      await expectLiteral({ template: step }, around(step));
    });
  }

  it('an argument word ($N) is one literal word too', async () => {
    const log = { shell: [] as string[], reads: [] as string[] };
    await expandCommand(
      command({ template: "!`printf '<%s>' $0 \"$1\" '$2'`" }),
      `'$(touch PWNED)' "a;touch PWNED" "it's"`,
      recordingShell(log),
      signal,
    );
    expect(runInBash(log.shell)).toEqual(["<$(touch PWNED)><a;touch PWNED><it's>"]);
    expect(existsSync(join(dir, 'PWNED'))).toBe(false);
  });

  it('refuses a placeholder where it cannot be quoted reliably (backquotes, parameter expansions, comments, here-documents)', async () => {
    const log = { shell: [] as string[], reads: [] as string[] };
    const services = recordingShell(log);
    for (const template of [
      '!{echo `echo {{args}}`}',
      '!{echo "${X:-{{args}}}"}',
      '!{echo hi # {{args}}}',
      '!{cat <<EOF\n{{args}}\nEOF}',
    ]) {
      await expect(
        expandCommand(command({ format: 'toml', template }), 'x\ntouch PWNED', services, signal),
        template,
      ).rejects.toThrow(CommandExpansionError);
    }
    expect(log.shell).toEqual([]);
  });
});

describe('substituted text is never expanded again', () => {
  function recording(outputs: Record<string, string> = {}) {
    const log = { shell: [] as string[], reads: [] as string[] };
    const services: TemplateServices = {
      async runShell(line) {
        log.shell.push(line);
        return { output: outputs[line] ?? '' };
      },
      async readPath(path) {
        log.reads.push(path);
        return [{ text: outputs[`@${path}`] ?? `<${path}>` }];
      },
    };
    return { log, services };
  }

  it('Markdown: an argument carrying !`…`, ```!, @file or $N is text', async () => {
    const { log, services } = recording();
    const out = await expandCommand(
      command({ template: 'Review $ARGUMENTS then $0' }),
      '!`touch PWNED` @secret.txt $1 $ARGUMENTS',
      services,
      signal,
    );
    expect(log.shell).toEqual([]);
    expect(log.reads).toEqual([]);
    expect(text(out.parts)).toBe('Review !`touch PWNED` @secret.txt $1 $ARGUMENTS then !`touch');
  });

  it('Markdown: arguments appended as ARGUMENTS: are not scanned either', async () => {
    const { log, services } = recording();
    const out = await expandCommand(command({ template: 'Review' }), '!`id` @secret.txt', services, signal);
    expect(log).toEqual({ shell: [], reads: [] });
    expect(text(out.parts)).toBe('Review\n\nARGUMENTS: !`id` @secret.txt');
  });

  it("Markdown: a fenced block's output is not scanned for !`…` or @file", async () => {
    const { log, services } = recording({ 'cat notes': 'see !`touch PWNED` and @secret.txt' });
    const out = await expandCommand(
      command({ template: '```!\ncat notes\n```\nDone' }),
      '',
      services,
      signal,
    );
    expect(log.shell).toEqual(['cat notes']);
    expect(log.reads).toEqual([]);
    expect(text(out.parts)).toBe('see !`touch PWNED` and @secret.txt\nDone');
  });

  it("Markdown: an inline step's output is not scanned for @file or $ARGUMENTS", async () => {
    const { log, services } = recording({ 'git log': '@secret.txt $ARGUMENTS' });
    const out = await expandCommand(command({ template: 'Log: !`git log`' }), '', services, signal);
    expect(log.reads).toEqual([]);
    expect(text(out.parts)).toBe('Log: @secret.txt $ARGUMENTS');
  });

  it('Markdown: an @file of the template may name its path with an argument, read once, as a path', async () => {
    const { log, services } = recording();
    const out = await expandCommand(command({ template: 'Explain @src/$0.ts' }), 'main', services, signal);
    expect(log.reads).toEqual(['src/main.ts']);
    expect(text(out.parts)).toBe(
      'Content from @src/main.ts:\n<src/main.ts>\n\nExplain @src/main.ts\n\nARGUMENTS: main',
    );
  });

  it('TOML: {{args}}, !{…} and @{…} that come from arguments, files or commands stay text', async () => {
    const { log, services } = recording({
      'cat notes': '!{touch PWNED} @{secret.txt} {{args}}',
      '@a.md': '!{touch PWNED} @{secret.txt} {{args}}',
    });
    const out = await expandCommand(
      command({ format: 'toml', template: 'A {{args}} !{cat notes} @{a.md}' }),
      '!{id} @{secret.txt} {{args}}',
      services,
      signal,
    );
    expect(log.shell).toEqual(['cat notes']);
    expect(log.reads).toEqual(['a.md']);
    expect(text(out.parts)).toBe(
      'A !{id} @{secret.txt} {{args}} !{touch PWNED} @{secret.txt} {{args}} !{touch PWNED} @{secret.txt} {{args}}',
    );
  });
});
