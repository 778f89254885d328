import { gitEffects } from './git-options';
import { type OptionCheck, type OptionTable, readOptions, runs, unknown, writes } from './option-reader';
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

const table =
  (options: OptionTable): OptionCheck =>
  (args) =>
    readOptions(args, options).effects;

/** `find`: primaries that write a file (`-fprint file`) or run or delete (`-exec`, `-delete`). */
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);
const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete']);
const find: OptionCheck = (args) => {
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
const sed: OptionCheck = (args) => {
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
const awk: OptionCheck = (args) => {
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
const tee: OptionCheck = (args) => {
  // `--output-error[=MODE]` takes its value attached only: the next word is a file.
  const options = readOptions(args, {});
  return [...options.effects, ...options.operands.map((word) => writes('tee', word))];
};

/** `uniq in out`, `xxd in out`: the second operand is written. */
const secondOperandWritten =
  (name: string, options: OptionTable): OptionCheck =>
  (args) => {
    const read = readOptions(args, options);
    const output = read.operands[1];
    return output ? [...read.effects, writes(name, output)] : read.effects;
  };

/** `dd of=file`. */
const dd: OptionCheck = (args) =>
  args.flatMap((word) => {
    if (word.value === undefined) return word.text.startsWith('of=') || word.mayBeOption ? [unknown()] : [];
    return word.value.startsWith('of=')
      ? [writes('dd of=', { value: word.value.slice(3), mayBeOption: false, text: word.value.slice(3) })]
      : [];
  });

/** `openssl … -out file`, `-keyout file` (single-dash long options). */
const openssl: OptionCheck = (args) =>
  args.flatMap((word, index) =>
    word.value === '-out' || word.value === '-keyout'
      ? [writes(`openssl ${word.value}`, args[index + 1])]
      : word.value === undefined && word.mayBeOption
        ? [unknown()]
        : [],
  );

/** `tar`: creating, extracting or updating writes; compressors and scripts it runs (their value is the program). */
const TAR_RUNS = [
  'use-compress-program',
  'to-command',
  'checkpoint-action',
  'info-script',
  'new-volume-script',
  'rsh-command',
  'rmt-command',
];
const TAR: OptionTable = {
  shortValues: 'fCbKgLNTIFVX',
  longValues: [
    ...TAR_RUNS,
    'file',
    'directory',
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
  runLong: TAR_RUNS,
  writeLong: ['index-file'],
  changeShort: 'xcruA',
  changeLong: ['extract', 'get', 'create', 'append', 'update', 'catenate', 'concatenate', 'delete'],
};
const tar: OptionCheck = (args) => {
  // Old style: `tar xzf a.tar`, the first word is a cluster without its dash.
  const first = args[0];
  const words =
    first?.value !== undefined && !first.value.startsWith('-')
      ? [{ ...first, value: `-${first.value}`, mayBeOption: true }, ...args.slice(1)]
      : args;
  return readOptions(words, TAR).effects;
};

const CHECKS: Readonly<Record<string, OptionCheck>> = {
  git: gitEffects,
  sort: table({
    shortValues: 'kStTo',
    longValues: [
      'key',
      'buffer-size',
      'field-separator',
      'temporary-directory',
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
    longValues: ['head-count', 'input-range', 'random-source'],
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
      'config',
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
    longValues: ['rsh', 'rsync-path', 'filter', 'exclude', 'include', 'temp-dir'],
    runShort: 'e',
    runLong: ['rsh', 'rsync-path'],
    writeLong: ['log-file', 'write-batch', 'only-write-batch'],
  }),
  openssl,
};
