import type { ShellRedirect, ShellWord } from './shell-parser';

/**
 * Reading a command's arguments as GNU getopt does, with a table that says which options take a
 * value, write the file they name, run something, or make the command rewrite files: what
 * option-effects.ts needs to find writes and programs behind a command's options.
 */

/** What a command's options do beyond reading: each write or program as a redirection would be. */
export type OptionCheck = (args: readonly ShellWord[]) => ShellRedirect[];

/** Which options of a command take a value, write the file they name, run something, or rewrite operands. */
export interface OptionTable {
  /** Short options that take a value (attached or the next word); letters. */
  shortValues?: string;
  /** Long options that take a value (`--name=value` or the next word). */
  longValues?: readonly string[];
  /** Options whose value (attached or the next word) is a file the command writes. */
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
export interface Options {
  effects: ShellRedirect[];
  /** Words that are not options or their values, in order. */
  operands: ShellWord[];
  /** Values of value-taking options, by the option as written in the table (`e`, `expression`). */
  values: Map<string, ShellWord[]>;
  /** Options seen (table names), for commands whose meaning depends on them. */
  seen: Set<string>;
}

export const UNKNOWN_ARGUMENT = 'an argument only known when the line runs';

export function unknown(): ShellRedirect {
  return { operator: UNKNOWN_ARGUMENT, touchesFile: true };
}

export function writes(operator: string, word: ShellWord | undefined): ShellRedirect {
  const target = word?.value;
  return target === undefined ? { operator, touchesFile: true } : { operator, target, touchesFile: true };
}

export function runs(operator: string): ShellRedirect {
  return { operator, touchesFile: true };
}

/**
 * Reads options as GNU getopt does, options after operands included (a superset of POSIX's
 * "options first"); `--` ends them. Long options may be abbreviated, so a word that is a prefix
 * of a writing or running option counts as that option. A word whose value is only known when
 * the line runs and that may start with `-` could be any option: an unknown effect.
 */
export function readOptions(args: readonly ShellWord[], table: OptionTable): Options {
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
    if (table.runShort?.includes(letter) || table.changeShort?.includes(letter)) {
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
