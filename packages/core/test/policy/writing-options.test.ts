import { describe, expect, it } from 'vitest';
import { ctx, engineWith, shell } from './helpers';

/**
 * Issue N, class 1: an allow rule meant for a command that only reads must not let through the
 * same command with an option that writes a file or runs another program (`git log
 * --output=…`, `sort -o`, `find -fprint`, `sed -i`…). Such options count like a redirection:
 * they ask, unless the mode is auto_edit (or the rule says allowRedirection) and the file is a
 * literal path inside the workspace that is not a control file. Running a program always asks.
 */
const ALLOW_READERS = `
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git", "sort", "find", "sed", "awk", "gawk", "rg", "tar", "curl", "wget", "dd", "tee", "uniq", "shuf", "fd", "yq", "man", "rsync", "xxd", "openssl"]
decision = "allow"
priority = 100
`;
const ALLOW_GIT_LOG_ONLY = `
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git log", "git diff", "git grep", "git show"]
decision = "allow"
priority = 100
`;

/** Lines an allow rule for the command must not allow outside yolo. */
const WRITES_OR_RUNS = [
  'git log --output=/tmp/x',
  'git log --output /tmp/x',
  'git log --outp=/tmp/x',
  'git log -p --output=../x -- src',
  'git diff --output=/tmp/x',
  'git show HEAD --output=/tmp/x',
  'git grep -Oid foo',
  'git grep -O id foo',
  'git grep --open-files-in-pager=id foo',
  'git -c core.pager=id log',
  'git -ccore.pager=id log',
  'git --config-env=core.pager=EVIL log',
  'git --exec-path=/tmp/evil log',
  'git --git-dir=/tmp/evil/.git log',
  'git format-patch -o /tmp/out HEAD~1',
  'git format-patch --output-directory=/tmp/out HEAD~1',
  'git archive -o /tmp/x.tar HEAD',
  'git archive --remote=x --exec=id HEAD',
  'git ls-remote --upload-pack=id origin',
  'git fetch --upload-pack=id origin',
  'git clone -u id https://example.com/x',
  'git push --receive-pack=id origin',
  'git rebase --exec=id HEAD~1',
  'git rebase -x id HEAD~1',
  'git difftool -x id',
  'git log "$OPTS"',
  'for x in --output=/tmp/x; do git log $x; done',
  'git log $OPTS',
  'git log *',
  'git log --outpu?=x',
  'git log --{output=x,x}',
  'sort -o ~/.bashrc notes.txt',
  'sort -ro /tmp/x notes.txt',
  'sort -o/tmp/x notes.txt',
  'sort --output=/tmp/x notes.txt',
  'sort --out=/tmp/x notes.txt',
  'sort notes.txt -o /tmp/x',
  'sort --compress-program=id notes.txt',
  'shuf -o /tmp/x notes.txt',
  'find . -fprint /tmp/x',
  'find . -fprint0 /tmp/x',
  'find . -fprintf /tmp/x %p',
  'find . -fls /tmp/x',
  'find . -exec id ;',
  'find . -execdir id {} +',
  'find . -ok id ;',
  'find . -delete',
  'find . "$X"',
  'fd -x id',
  'fd --exec-batch id',
  'sed -i s/a/b/ notes.txt',
  'sed -ie s/a/b/ notes.txt',
  'sed -n -i.bak s/a/b/ notes.txt',
  'sed --in-place s/a/b/ notes.txt',
  'sed --in-pl s/a/b/ notes.txt',
  "sed -n 'w /tmp/x' notes.txt",
  "sed '1w /tmp/x' notes.txt",
  "sed -n '/a/,/b/W /tmp/x' notes.txt",
  "sed 's/a/b/w /tmp/x' notes.txt",
  "sed 's|a|b|gw /tmp/x' notes.txt",
  "sed '1e id' notes.txt",
  "sed 's/a/id/e' notes.txt",
  "sed -e p -e 'w /tmp/x' notes.txt",
  "sed --expression='w /tmp/x' notes.txt",
  "sed '/x/{p;w /tmp/x\n}' notes.txt",
  'sed -f script.sed notes.txt',
  'sed "$SCRIPT" notes.txt',
  `awk '{system("id")}' notes.txt`,
  `awk '{print > "/tmp/x"}' notes.txt`,
  `awk '{print | "sh"}' notes.txt`,
  `awk '{"id" | getline x}' notes.txt`,
  `awk 'BEGIN{printf "x" >> "/tmp/x"}'`,
  'awk -f prog.awk notes.txt',
  'gawk -i inplace 1 notes.txt',
  'gawk -o/tmp/x 1 notes.txt',
  `awk "$PROG" notes.txt`,
  'rg --pre id foo',
  'rg --pre=id foo',
  'tar -tf a.tar -I id',
  'tar -tf a.tar --use-compress-program=id',
  'tar --to-command=id -xf a.tar',
  'tar -xf a.tar',
  'tar xf a.tar',
  'tar -cf /tmp/x.tar .',
  'tar --checkpoint-action=exec=id -tf a.tar',
  'curl -o /tmp/x https://example.com',
  'curl -sSLo /tmp/x https://example.com',
  'curl --output /tmp/x https://example.com',
  'curl -O https://example.com/x',
  'curl -D /tmp/h https://example.com',
  'curl -K cfg https://example.com',
  'wget -O /tmp/x https://example.com',
  'wget -o /tmp/log https://example.com',
  'dd if=notes.txt of=/tmp/x',
  'tee /tmp/x',
  'tee -a ~/.bashrc',
  'uniq notes.txt /tmp/x',
  'xxd notes.txt /tmp/x',
  'yq -i .a=1 f.yaml',
  'man -P id ls',
  'rsync -e id a b',
  'openssl enc -in a -out /tmp/x',
  'bash -c "sort -o /tmp/x notes.txt"',
  'git status && sort -o /tmp/x notes.txt',
];

/** Reading uses of the same commands: still allowed by the rule. */
const READS = [
  'git log --oneline -5',
  'git log --output-indicator-new=+ -p',
  'git diff --stat',
  'git diff src/*.ts',
  'git log -- "$FILE"',
  'git log -p -- src',
  'git grep -n foo',
  'git -C sub status',
  'sort -r -k2 notes.txt',
  'sort -t, -k1 notes.txt',
  'sort -- -o',
  'find . -name "*.ts" -print',
  'find src -type f -newer notes.txt',
  "sed -n '1,5p' notes.txt",
  "sed 's/a/b/g' notes.txt",
  "sed -e 's/x/y/' -e '/re/d' notes.txt",
  "sed -E 's/(a|b)+/c/; 3q' notes.txt",
  "sed '/start/,/end/{s/x/y/;p}' notes.txt",
  "sed -n '$=' notes.txt",
  "sed 'y/abc/xyz/' notes.txt",
  "awk '{print $1}' notes.txt",
  "awk -F: '{print $1}' /etc/passwd",
  'rg -n foo src',
  'tar -tzf a.tar.gz',
  'tar tf a.tar',
  'curl -sS https://example.com',
  'dd if=notes.txt bs=1 count=4',
  'uniq -c notes.txt',
  'xxd notes.txt',
  'fd -e ts src',
];

describe('options that write files or run programs under a rule for the command', () => {
  it.each(WRITES_OR_RUNS)('%s is not allowed by a rule for the command (default, headless)', async (line) => {
    const engine = engineWith({ user: ALLOW_READERS });
    expect((await engine.check(shell(line), ctx('default'))).decision).toBe('ask_user');
    expect((await engine.check(shell(line), ctx('default', false))).decision).toBe('deny');
  });

  it.each(WRITES_OR_RUNS.filter((line) => line.startsWith('git log') || line.startsWith('git diff')))(
    '%s is not allowed by a `git log` / `git diff` prefix rule',
    async (line) => {
      const engine = engineWith({ user: ALLOW_GIT_LOG_ONLY });
      expect((await engine.check(shell(line), ctx('default'))).decision).toBe('ask_user');
    },
  );

  it.each(READS)('control: %s stays allowed', async (line) => {
    const engine = engineWith({ user: ALLOW_READERS });
    expect((await engine.check(shell(line), ctx('default'))).decision).toBe('allow');
  });

  it('auto_edit: a written file inside the workspace runs as a redirection would; outside, a control file or a program asks', async () => {
    const engine = engineWith({ user: ALLOW_READERS });
    for (const line of [
      'sort -o out.txt notes.txt',
      'sed -i s/a/b/ notes.txt',
      'git log --output=log.txt',
      'tee out.txt',
    ]) {
      expect((await engine.check(shell(line), ctx('auto_edit'))).decision, line).toBe('allow');
    }
    for (const line of [
      'sort -o /tmp/x notes.txt',
      'sort -o .git/hooks/pre-commit notes.txt',
      'sed -i s/a/b/ .kodo/settings.json',
      'git log --output=~/x',
      'find . -exec id ;',
      "sed '1e id' notes.txt",
      'sed -i s/a/b/ "$F"',
    ]) {
      expect((await engine.check(shell(line), ctx('auto_edit'))).decision, line).toBe('ask_user');
    }
  });

  it('yolo runs them, as it runs redirections', async () => {
    const engine = engineWith({ user: ALLOW_READERS });
    expect((await engine.check(shell('sort -o /tmp/x notes.txt'), ctx('yolo'))).decision).toBe('allow');
  });
});
