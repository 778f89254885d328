import {
  type OptionCheck,
  type OptionTable,
  readOptions,
  runs,
  UNKNOWN_ARGUMENT,
  unknown,
} from './option-reader';

/**
 * git's options that write a file or run a program: the global ones (`-c core.pager=…`,
 * `--config-env`, `--exec-path=`, `--git-dir`/`--work-tree`, which pick another repository's
 * configuration) and those of the subcommand (`log --output`, `grep -O`, `rebase --exec`…).
 */
const GIT_GLOBAL: OptionTable = {
  shortValues: 'Cc',
  longValues: ['git-dir', 'work-tree', 'namespace', 'super-prefix', 'config-env', 'list-cmds', 'attr-source'],
  runShort: 'c',
  runLong: ['config-env', 'git-dir', 'work-tree'],
};
/** Options of git subcommands that write a file or run a program. */
const GIT_SUBCOMMANDS: Readonly<Record<string, OptionTable>> = (() => {
  const diffLike: OptionTable = {
    shortValues: 'nSGOLlMCB',
    longValues: [
      'author',
      'committer',
      'grep',
      'since',
      'until',
      'after',
      'before',
      'format',
      'pretty',
      'max-count',
      'skip',
    ],
    writeLong: ['output'],
  };
  const remote: OptionTable = {
    runLong: ['upload-pack', 'receive-pack', 'exec'],
    longValues: ['upload-pack', 'receive-pack', 'exec'],
  };
  const table: Record<string, OptionTable> = {
    'format-patch': { ...diffLike, writeShort: 'o', writeLong: ['output-directory', 'output'] },
    archive: {
      writeShort: 'o',
      writeLong: ['output'],
      runLong: ['exec', 'remote'],
      longValues: ['exec', 'remote', 'format', 'prefix'],
    },
    grep: {
      shortValues: 'efABCm',
      longValues: ['max-depth', 'threads', 'max-count'],
      runShort: 'O',
      runLong: ['open-files-in-pager'],
      attachedShort: 'O',
    },
    clone: { ...remote, runShort: 'u', shortValues: 'uobc' },
    rebase: {
      runShort: 'x',
      runLong: ['exec'],
      shortValues: 'xsX',
      longValues: ['exec', 'onto', 'strategy'],
    },
    difftool: {
      runShort: 'xt',
      runLong: ['extcmd', 'tool'],
      shortValues: 'xt',
      longValues: ['extcmd', 'tool'],
    },
    mergetool: { runShort: 't', runLong: ['tool'], shortValues: 't', longValues: ['tool'] },
  };
  for (const name of [
    'log',
    'show',
    'diff',
    'whatchanged',
    'range-diff',
    'diff-tree',
    'diff-index',
    'diff-files',
    'reflog',
    'stash',
    'shortlog',
    'cherry',
  ]) {
    table[name] = diffLike;
  }
  for (const name of ['fetch', 'pull', 'ls-remote', 'push', 'remote', 'submodule']) table[name] = remote;
  return table;
})();
/** Subcommands that run what their operands say (`git bisect run …`, `git submodule foreach …`). */
const GIT_RUNNING_OPERANDS: Readonly<Record<string, string>> = { bisect: 'run', submodule: 'foreach' };

/** `git [globals] <subcommand> [options]`: the globals, then the subcommand's own table. */
export const gitEffects: OptionCheck = (args) => {
  let split = args.findIndex((word, index) => {
    if (word.value === undefined) return !word.mayBeOption;
    if (word.value.startsWith('-')) return false;
    const previous = args[index - 1]?.value;
    // The value of `-C dir`, `-c x=y` or a long global given as the next word.
    return !(
      previous === '-C' ||
      previous === '-c' ||
      (previous !== undefined && GIT_GLOBAL.longValues!.includes(previous.slice(2)))
    );
  });
  if (split < 0) split = args.length;
  const globals = readOptions(args.slice(0, split), GIT_GLOBAL);
  const effects = [...globals.effects];
  // `--exec-path=dir` runs git's programs from there (`--exec-path` alone prints it).
  if (args.slice(0, split).some((word) => word.value?.startsWith('--exec-path=')))
    effects.push(runs('git --exec-path'));
  const subcommand = args[split];
  if (!subcommand) return effects;
  if (subcommand.value === undefined) return [...effects, unknown()];
  const rest = args.slice(split + 1);
  const subTable = GIT_SUBCOMMANDS[subcommand.value];
  const sub = readOptions(rest, subTable ?? {});
  effects.push(
    ...(subTable ? sub.effects : sub.effects.filter((effect) => effect.operator === UNKNOWN_ARGUMENT)),
  );
  const running = GIT_RUNNING_OPERANDS[subcommand.value];
  if (running && sub.operands.some((word) => word.value === running || word.value === undefined)) {
    effects.push(runs(`git ${subcommand.value} ${running}`));
  }
  return effects;
};
