import { sedScriptEffects } from './sed-script';
import type { ShellRedirect, ShellWord } from './shell-parser';

/**
 * Options that make a command which usually only reads write a file or run another program:
 * `git log --output=x`, `sort -o x`, `find -fprint x` / `-exec`, `sed -i` and sed's `w`/`e`,
 * `awk '{system(…)}'`, `rg --pre`, `tar -I`, `curl -o`… An allow rule written for such a command
 * (by prefix, or remembered with "allow always") must not let them through: the engine treats
 * each effect found here like a redirection (see `downgradeRedirection`). A file written is
 * returned with its literal path when there is one; running a program, or an argument whose
 * value is only known when the line runs (`$X`, a glob that may name `--output=…`), has no
 * target and therefore asks in every mode but yolo.
 *
 * This covers the commands listed in `CHECKS` (what people allow as "read-only"); other
 * commands' options are the rule author's business, as their redirections are not.
 */
export function optionEffects(words: readonly ShellWord[]): ShellRedirect[] {
  const name = words[0]?.value;
  if (name === undefined) return [];
  const check = CHECKS[name.slice(name.lastIndexOf('/') + 1)];
  return check ? check(words.slice(1)) : [];
}

type Check = (args: readonly ShellWord[]) => ShellRedirect[];

/** Which options of a command take a value, write the file they name, run something, or rewrite operands. */
interface OptionTable {
  /** Short options that take a value (attached or the next word); letters. */
  shortValues?: string;
  /** Long options that take a value (`--name=value` or the next word). */
  longValues?: readonly string[];
  /** Options whose value is a file the command writes. */
  writeShort?: string;
  writeLong?: readonly string[];
  /** Options that run a program or code (those listed in `shortValues`/`longValues` take one). */
  runShort?: string;
  runLong?: readonly string[];
  /** Options that make the command create or rewrite files it does not name here (`sed -i`, `tar -x`). */
  changeShort?: string;
  changeLong?: readonly string[];
  /** Options that make the command rewrite its file operands (`sed -i`): recorded as `in-place`. */
  inPlaceShort?: string;
  inPlaceLong?: readonly string[];
  /** Short options whose value may only be attached (`sed -i.bak`): the rest of the word is theirs. */
  attachedShort?: string;
}

/** A command line read as getopt reads it, with what its options do. */
interface Options {
  effects: ShellRedirect[];
  /** Words that are not options or their values, in order. */
  operands: ShellWord[];
  /** Values of value-taking options, by the option as written in the table (`e`, `expression`). */
  values: Map<string, ShellWord[]>;
  /** Options seen (table names), for commands whose meaning depends on them. */
  seen: Set<string>;
}

const UNKNOWN_ARGUMENT = 'an argument only known when the line runs';

function unknown(): ShellRedirect {
  return { operator: UNKNOWN_ARGUMENT, touchesFile: true };
}

function writes(operator: string, word: ShellWord | undefined): ShellRedirect {
  const target = word?.value;
  return target === undefined ? { operator, touchesFile: true } : { operator, target, touchesFile: true };
}

function runs(operator: string): ShellRedirect {
  return { operator, touchesFile: true };
}

/**
 * Reads options as GNU getopt does, options after operands included (a superset of POSIX's
 * "options first"); `--` ends them. Long options may be abbreviated, so a word that is a prefix
 * of a writing or running option counts as that option. A word whose value is only known when
 * the line runs and that may start with `-` could be any option: an unknown effect.
 */
function readOptions(args: readonly ShellWord[], table: OptionTable): Options {
  const options: Options = { effects: [], operands: [], values: new Map(), seen: new Set() };
  let index = 0;
  const value = (attached: string | undefined): ShellWord | undefined => {
    if (attached !== undefined) return { value: attached, mayBeOption: false, text: attached };
    index += 1;
    return args[index];
  };
  const record = (option: string, word: ShellWord | undefined) => {
    options.seen.add(option);
    if (word) options.values.set(option, [...(options.values.get(option) ?? []), word]);
  };
  for (; index < args.length; index += 1) {
    const word = args[index]!;
    const text = word.value;
    if (text === undefined) {
      if (word.mayBeOption) options.effects.push(unknown());
      else options.operands.push(word);
      continue;
    }
    if (text === '--') {
      options.operands.push(...args.slice(index + 1));
      break;
    }
    if (text.startsWith('--')) {
      const equals = text.indexOf('=');
      const written = equals < 0 ? text.slice(2) : text.slice(2, equals);
      const attached = equals < 0 ? undefined : text.slice(equals + 1);
      readLong(written, attached, table, options, value, record);
      continue;
    }
    if (text.startsWith('-') && text.length > 1) {
      readShortCluster(text, table, options, value, record);
      continue;
    }
    options.operands.push(word);
  }
  return options;
}

type TakeValue = (attached: string | undefined) => ShellWord | undefined;
type Record_ = (option: string, word: ShellWord | undefined) => void;

function readLong(
  written: string,
  attached: string | undefined,
  table: OptionTable,
  options: Options,
  value: TakeValue,
  record: Record_,
): void {
  const matches = (names: readonly string[] | undefined) =>
    (names ?? []).filter((name) => name.startsWith(written) && written !== '');
  const exact = (names: readonly string[] | undefined) => (names ?? []).includes(written);
  const operator = `--${written}`;
  const write = matches(table.writeLong);
  if (write.length > 0 && (exact(table.writeLong) || !exact(table.longValues))) {
    options.effects.push(writes(operator, value(attached)));
    record(write[0]!, undefined);
    return;
  }
  const run = matches(table.runLong);
  if (run.length > 0 && (exact(table.runLong) || !exact(table.longValues))) {
    options.effects.push(runs(operator));
    if (exact(table.longValues) || (table.longValues ?? []).includes(run[0]!)) value(attached);
    record(run[0]!, undefined);
    return;
  }
  const change = matches(table.changeLong);
  if (change.length > 0) {
    options.effects.push(runs(operator));
    record(change[0]!, undefined);
    return;
  }
  if (matches(table.inPlaceLong).length > 0) {
    record('in-place', undefined);
    return;
  }
  const valued = matches(table.longValues);
  if (valued.length > 0) {
    const name = exact(table.longValues) ? written : valued[0]!;
    record(name, value(attached));
    return;
  }
  options.seen.add(written);
}

function readShortCluster(
  text: string,
  table: OptionTable,
  options: Options,
  value: TakeValue,
  record: Record_,
): void {
  for (let at = 1; at < text.length; at += 1) {
    const letter = text[at]!;
    const rest = text.slice(at + 1);
    const operator = `-${letter}`;
    if (table.writeShort?.includes(letter)) {
      options.effects.push(writes(operator, value(rest === '' ? undefined : rest)));
      record(letter, undefined);
      return;
    }
    if (table.runShort?.includes(letter)) {
      options.effects.push(runs(operator));
      record(letter, undefined);
      if (table.shortValues?.includes(letter)) value(rest === '' ? undefined : rest);
      if (table.shortValues?.includes(letter) || table.attachedShort?.includes(letter)) return;
      continue;
    }
    if (table.changeShort?.includes(letter)) {
      options.effects.push(runs(operator));
      record(letter, undefined);
      if (table.shortValues?.includes(letter)) value(rest === '' ? undefined : rest);
      if (table.shortValues?.includes(letter) || table.attachedShort?.includes(letter)) return;
      continue;
    }
    if (table.inPlaceShort?.includes(letter)) {
      record('in-place', undefined);
      if (table.attachedShort?.includes(letter)) return;
      continue;
    }
    if (table.shortValues?.includes(letter)) {
      record(letter, value(rest === '' ? undefined : rest));
      return;
    }
    record(letter, undefined);
    if (table.attachedShort?.includes(letter)) return;
  }
}

const table =
  (options: OptionTable): Check =>
  (args) =>
    readOptions(args, options).effects;

/** `find`: primaries that write a file (`-fprint file`) or run or delete (`-exec`, `-delete`). */
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);
const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete']);
const find: Check = (args) => {
  const effects: ShellRedirect[] = [];
  args.forEach((word, index) => {
    const text = word.value;
    if (text === undefined) {
      if (word.mayBeOption) effects.push(unknown());
    } else if (FIND_WRITES.has(text)) effects.push(writes(`find ${text}`, args[index + 1]));
    else if (FIND_RUNS.has(text)) effects.push(runs(`find ${text}`));
  });
  return effects;
};

const SED: OptionTable = {
  shortValues: 'efl',
  longValues: ['expression', 'file', 'line-length'],
  runShort: 'f',
  runLong: ['file'],
  inPlaceShort: 'iI',
  inPlaceLong: ['in-place'],
  attachedShort: 'iI',
};
/** `sed`: `-i` rewrites the files named; each script is read for `w`, `W` and `e`. */
const sed: Check = (args) => {
  const options = readOptions(args, SED);
  const effects = [...options.effects];
  const scripts = [...(options.values.get('e') ?? []), ...(options.values.get('expression') ?? [])];
  const files = [...options.operands];
  if (scripts.length === 0 && !options.seen.has('f') && !options.seen.has('file')) {
    const first = files.shift();
    if (first) scripts.push(first);
  }
  if (options.seen.has('in-place')) {
    effects.push(...(files.length > 0 ? files.map((file) => writes('sed -i', file)) : [runs('sed -i')]));
  }
  if (options.seen.has('sandbox')) return effects; // GNU sed then refuses e, w and r itself.
  for (const script of scripts) {
    if (script.value === undefined) {
      effects.push(runs('a sed script only known when the line runs'));
      continue;
    }
    for (const effect of sedScriptEffects(script.value)) {
      effects.push(
        effect.kind === 'writes'
          ? writes('sed w', { value: effect.file, mayBeOption: false, text: effect.file })
          : runs(effect.what),
      );
    }
  }
  return effects;
};

const AWK: OptionTable = {
  shortValues: 'vFfEilW',
  longValues: ['assign', 'field-separator', 'file', 'exec', 'include', 'load', 'source'],
  runShort: 'fEilW',
  runLong: ['file', 'exec', 'include', 'load'],
  changeShort: 'opdD',
  changeLong: ['pretty-print', 'profile', 'dump-variables', 'debug'],
  attachedShort: 'opdD',
};
/** What in an awk program writes or runs: `system()`, `print > file`, pipes, gawk's `@load`. */
const AWK_EFFECTS = /\bsystem\b|[|>]|@/;
/** `awk`: a program from a file runs unseen; a program text that writes or runs asks. */
const awk: Check = (args) => {
  const options = readOptions(args, AWK);
  const effects = [...options.effects];
  const programs = [...(options.values.get('source') ?? [])];
  if (
    !options.seen.has('f') &&
    !options.seen.has('file') &&
    !options.seen.has('E') &&
    !options.seen.has('exec')
  ) {
    const first = options.operands[0];
    if (first) programs.push(first);
  }
  for (const program of programs) {
    if (program.value === undefined || AWK_EFFECTS.test(program.value)) effects.push(runs('an awk program'));
  }
  return effects;
};

/** `tee`: every operand is a file written. */
const tee: Check = (args) => {
  // `--output-error[=MODE]` takes its value attached only: the next word is a file.
  const options = readOptions(args, {});
  return [...options.effects, ...options.operands.map((word) => writes('tee', word))];
};

/** `uniq in out`, `xxd in out`: the second operand is written. */
const secondOperandWritten =
  (name: string, options: OptionTable): Check =>
  (args) => {
    const read = readOptions(args, options);
    const output = read.operands[1];
    return output ? [...read.effects, writes(name, output)] : read.effects;
  };

/** `dd of=file`. */
const dd: Check = (args) =>
  args.flatMap((word) => {
    if (word.value === undefined) return word.text.startsWith('of=') || word.mayBeOption ? [unknown()] : [];
    return word.value.startsWith('of=')
      ? [writes('dd of=', { value: word.value.slice(3), mayBeOption: false, text: word.value.slice(3) })]
      : [];
  });

/** `openssl … -out file`, `-keyout file` (single-dash long options). */
const openssl: Check = (args) =>
  args.flatMap((word, index) =>
    word.value === '-out' || word.value === '-keyout'
      ? [writes(`openssl ${word.value}`, args[index + 1])]
      : word.value === undefined && word.mayBeOption
        ? [unknown()]
        : [],
  );

/** `tar`: creating, extracting or updating writes; compressors and scripts it runs. */
const TAR: OptionTable = {
  shortValues: 'fCbKgLNTIFVX',
  longValues: [
    'file',
    'directory',
    'use-compress-program',
    'to-command',
    'checkpoint-action',
    'info-script',
    'new-volume-script',
    'rsh-command',
    'rmt-command',
    'index-file',
    'exclude',
    'files-from',
    'exclude-from',
    'transform',
    'xform',
    'owner',
    'group',
    'mode',
    'mtime',
    'label',
    'format',
    'blocking-factor',
    'record-size',
    'tape-length',
    'newer',
    'after-date',
    'newer-mtime',
    'starting-file',
    'suffix',
    'backup',
    'volno-file',
    'level',
    'listed-incremental',
    'quoting-style',
    'strip-components',
    'sort',
    'warning',
    'occurrence',
    'checkpoint',
  ],
  runShort: 'IF',
  runLong: [
    'use-compress-program',
    'to-command',
    'checkpoint-action',
    'info-script',
    'new-volume-script',
    'rsh-command',
    'rmt-command',
  ],
  writeLong: ['index-file'],
  changeShort: 'xcruA',
  changeLong: ['extract', 'get', 'create', 'append', 'update', 'catenate', 'concatenate', 'delete'],
};
const tar: Check = (args) => {
  // Old style: `tar xzf a.tar`, the first word is a cluster without its dash.
  const first = args[0];
  const words =
    first?.value !== undefined && !first.value.startsWith('-')
      ? [{ ...first, value: `-${first.value}`, mayBeOption: true }, ...args.slice(1)]
      : args;
  return readOptions(words, TAR).effects;
};

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
      'output',
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
      longValues: ['exec', 'remote', 'format', 'prefix', 'output'],
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
const git: Check = (args) => {
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

const CHECKS: Readonly<Record<string, Check>> = {
  git,
  sort: table({
    shortValues: 'kStTo',
    longValues: [
      'key',
      'buffer-size',
      'field-separator',
      'temporary-directory',
      'output',
      'batch-size',
      'parallel',
      'files0-from',
      'sort',
      'random-source',
      'compress-program',
    ],
    writeShort: 'o',
    writeLong: ['output'],
    runLong: ['compress-program'],
  }),
  shuf: table({
    shortValues: 'inoe',
    longValues: ['head-count', 'input-range', 'output', 'random-source'],
    writeShort: 'o',
    writeLong: ['output'],
  }),
  find,
  gfind: find,
  bfs: find,
  fd: table({
    shortValues: 'etEdjScxXo',
    longValues: [
      'extension',
      'type',
      'exclude',
      'max-depth',
      'min-depth',
      'exact-depth',
      'threads',
      'size',
      'changed-within',
      'changed-before',
      'exec',
      'exec-batch',
      'color',
      'owner',
      'base-directory',
      'search-path',
      'max-results',
      'format',
      'batch-size',
      'ignore-file',
    ],
    runShort: 'xX',
    runLong: ['exec', 'exec-batch'],
  }),
  fdfind: table({ shortValues: 'etEdjScxXo', runShort: 'xX', runLong: ['exec', 'exec-batch'] }),
  sed,
  gsed: sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  rg: table({
    shortValues: 'efgtTmABCrjMEd',
    longValues: [
      'regexp',
      'file',
      'glob',
      'iglob',
      'type',
      'type-not',
      'max-count',
      'after-context',
      'before-context',
      'context',
      'replace',
      'threads',
      'max-columns',
      'encoding',
      'max-depth',
      'pre',
      'pre-glob',
      'type-add',
      'sort',
      'sortr',
      'path-separator',
      'ignore-file',
      'engine',
      'color',
      'colors',
    ],
    runLong: ['pre'],
  }),
  tar,
  gtar: tar,
  bsdtar: tar,
  curl: table({
    shortValues: 'dHXuAebxFTwmrECYyzUQtPKcoD',
    longValues: [
      'output',
      'dump-header',
      'cookie-jar',
      'config',
      'trace',
      'trace-ascii',
      'stderr',
      'libcurl',
      'output-dir',
      'etag-save',
      'hsts',
      'alt-svc',
      'data',
      'header',
      'request',
      'user',
      'user-agent',
      'referer',
      'cookie',
      'proxy',
      'form',
      'upload-file',
      'write-out',
      'max-time',
      'range',
      'cert',
      'continue-at',
      'url',
    ],
    writeShort: 'oDc',
    writeLong: [
      'output',
      'dump-header',
      'cookie-jar',
      'trace',
      'trace-ascii',
      'stderr',
      'libcurl',
      'output-dir',
      'etag-save',
      'hsts',
      'alt-svc',
    ],
    runShort: 'K',
    runLong: ['config'],
    changeShort: 'OJ',
    changeLong: ['remote-name', 'remote-name-all', 'remote-header-name'],
  }),
  wget: table({
    shortValues: 'OoaePUitTwQlARDIXB',
    longValues: [
      'output-document',
      'output-file',
      'append-output',
      'execute',
      'directory-prefix',
      'user-agent',
      'input-file',
      'tries',
      'timeout',
      'wait',
      'quota',
      'level',
      'accept',
      'reject',
      'domains',
      'include-directories',
      'exclude-directories',
      'base',
      'header',
      'post-data',
      'post-file',
      'body-file',
      'config',
    ],
    writeShort: 'Ooa',
    writeLong: ['output-document', 'output-file', 'append-output'],
    runShort: 'e',
    runLong: ['execute', 'config'],
  }),
  dd,
  tee,
  uniq: secondOperandWritten('uniq', {
    shortValues: 'fsw',
    longValues: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'],
  }),
  xxd: secondOperandWritten('xxd', {
    shortValues: 'cglosnC',
    longValues: ['cols', 'groupsize', 'len', 'offset', 'seek', 'name'],
  }),
  yq: table({
    shortValues: 'opIP',
    longValues: ['output-format', 'input-format', 'indent', 'from-file', 'expression', 'front-matter'],
    changeShort: 'i',
    changeLong: ['inplace'],
  }),
  man: table({
    shortValues: 'PHMmSsLpeRCE',
    runShort: 'PH',
    runLong: ['pager', 'html'],
    longValues: ['pager', 'html'],
  }),
  rsync: table({
    shortValues: 'eBfTM',
    longValues: ['rsh', 'rsync-path', 'filter', 'exclude', 'include', 'temp-dir', 'log-file'],
    runShort: 'e',
    runLong: ['rsh', 'rsync-path'],
    writeLong: ['log-file', 'write-batch', 'only-write-batch'],
  }),
  openssl,
};
