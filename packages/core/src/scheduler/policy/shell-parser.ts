import type { Node, Parser } from 'web-tree-sitter';
import { locateShellParserWasm } from './shell-parser-wasm';
import {
  EVALUATING_BUILTINS,
  PLAIN_ARGUMENT_BUILTINS,
  REDIRECT_KINDS,
  SAFE_EXPANSION_OPERATORS,
  SAFE_TEST_OPERATORS,
  SENSITIVE_VARIABLES,
  STRUCTURAL_KINDS,
  SUBSTITUTION_KINDS,
  WORD_KINDS,
} from './shell-syntax';

/** A redirection of a command's input or output. */
export interface ShellRedirect {
  /** As written: `>`, `>>`, `<`, `&>`, `&>>`, `>|`, `>&`, `<<`, `<<<`… */
  operator: string;
  /**
   * The file, when the target is a literal word (no expansion, tilde, glob or quoting trick):
   * what a policy can check. Undefined for a target only known when the command runs.
   */
  target?: string;
  /** Reads or writes a file (not a descriptor duplication, /dev/null, here-document or here-string). */
  touchesFile: boolean;
}

/** One word of a command (its name or an argument), as far as the policy can know it. */
export interface ShellWord {
  /** As written. */
  text: string;
  /** Its value when nothing in it is expanded (quotes and backslashes removed). */
  value?: string;
  /** Whether, once expanded, it may start with `-` and so be read as an option. */
  mayBeOption: boolean;
}

/** One simple command found in a shell line, with where its output goes. */
export interface ShellSubCommand {
  /** The command's own text (assignments, name, arguments; not the redirections around it). */
  text: string;
  /** Its first word, e.g. `git`: what "allow always" remembers. */
  root: string;
  /** Its name and arguments, for the options that write or run (option-effects.ts). */
  words: ShellWord[];
  /** Reads or writes a file through `>`, `>>`, `<`, `&>`, `2>`, a here-document… */
  redirected: boolean;
  /** Every redirection that applies to it: its own and those of the statements around it. */
  redirects: ShellRedirect[];
}

export type ParsedShell = { ok: true; commands: ShellSubCommand[] } | { ok: false; reason: string };

export interface ShellParser {
  /**
   * Splits a command line into every simple command it would run: the parts of `&&`, `||`, `;`,
   * `|`, `&` and newlines, the bodies of subshells, groups, loops and conditionals, `$(…)`,
   * backticks and process substitutions, and the scripts of `bash -c "…"` and `eval` wrappers.
   * A construct it does not positively understand (see shell-syntax.ts) makes the line
   * `ok: false`: the caller must then ask.
   */
  parse(command: string): ParsedShell;
}

/** Shells whose `-c <script>` argument is unwrapped and checked like the outer line. */
const SHELL_WRAPPERS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash']);
/** Wrappers nest (`bash -c "sh -c '…'"`); past this depth the line is treated as unparsable. */
const MAX_WRAPPER_DEPTH = 4;

/**
 * Loads tree-sitter's bash grammar (WebAssembly). Costs ~40 ms on first use, so the policy
 * engine loads it only when it first checks a shell command.
 */
export async function loadShellParser(): Promise<ShellParser> {
  const { Parser: TreeSitter, Language } = await import('web-tree-sitter');
  const wasm = locateShellParserWasm();
  await TreeSitter.init({ locateFile: () => wasm.runtime });
  const language = await Language.load(wasm.grammar);
  const parser = new TreeSitter();
  parser.setLanguage(language);
  return { parse: (command) => parseWith(parser, command, 0) };
}

function parseWith(parser: Parser, command: string, depth: number): ParsedShell {
  const tree = parser.parse(command);
  if (!tree) return { ok: false, reason: 'the shell parser gave no result' };
  try {
    if (tree.rootNode.hasError) return { ok: false, reason: 'the command is not valid shell syntax' };
    const commands: ShellSubCommand[] = [];
    const failure = collect(tree.rootNode, { redirects: [], depth, parser, commands });
    return failure ? { ok: false, reason: failure } : { ok: true, commands };
  } finally {
    // Trees live in WebAssembly memory, which the garbage collector does not see.
    tree.delete();
  }
}

interface Walk {
  /** Redirections of the statements around the node. */
  redirects: ShellRedirect[];
  depth: number;
  parser: Parser;
  commands: ShellSubCommand[];
}

/** Signs of a substitution or expansion: `$(`, `${`, `$[`, a backtick. */
const HIDDEN_CODE = /\$[({[]|`/;

const notUnderstood = (what: string) => `${what} is not understood by the shell policy`;

/** Walks the syntax tree; returns a reason when part of it cannot be checked. */
function collect(node: Node, walk: Walk): string | undefined {
  if (!node.isNamed) return undefined; // Keywords and punctuation.
  const type = node.type;
  if (type === 'command') return collectCommand(node, walk);
  if (type === 'redirected_statement') return collectRedirected(node, walk);
  if (type === 'declaration_command' || type === 'unset_command') return collectDeclaration(node, walk);
  if (type === 'test_command') return checkTest(node, walk);
  if (SUBSTITUTION_KINDS.has(type)) {
    // Their output is captured or piped, not redirected by the enclosing statement.
    return collectChildren(node, { ...walk, redirects: [] });
  }
  if (type === 'compound_statement' && node.firstChild?.type === '((') {
    return notUnderstood('an arithmetic command `(( … ))`');
  }
  if (type === 'expansion') return checkExpansion(node, walk);
  if (type === 'for_statement') {
    const variable = node.childForFieldName('variable');
    if (variable && isSensitiveVariable(variable.text)) return notUnderstood(`a loop over ${variable.text}`);
  }
  if (type === 'arithmetic_expansion') return checkArithmetic(node);
  if (
    WORD_KINDS.has(type) &&
    node.namedChildCount === 0 &&
    type !== 'raw_string' &&
    HIDDEN_CODE.test(node.text)
  ) {
    // Text the grammar left opaque (a `${x#pattern}` pattern, an odd here-document) in which
    // bash would still run a substitution.
    return notUnderstood('a substitution inside text the parser does not break down');
  }
  if (STRUCTURAL_KINDS.has(type) || WORD_KINDS.has(type)) return collectChildren(node, walk);
  if (type === 'variable_assignment' || type === 'variable_assignments') {
    return notUnderstood('an assignment that changes later commands');
  }
  return notUnderstood(`the bash construct \`${type}\``);
}

function collectChildren(node: Node, walk: Walk): string | undefined {
  for (const child of node.children) {
    const failure = collect(child, walk);
    if (failure) return failure;
  }
  return undefined;
}

function collectRedirected(node: Node, walk: Walk): string | undefined {
  const own: ShellRedirect[] = [];
  for (const child of node.children) {
    if (!REDIRECT_KINDS.has(child.type)) continue;
    const failure = readRedirect(child, own, walk);
    if (failure) return failure;
  }
  const inner = { ...walk, redirects: [...walk.redirects, ...own] };
  for (const child of node.children) {
    if (REDIRECT_KINDS.has(child.type)) continue;
    const failure = collect(child, inner);
    if (failure) return failure;
  }
  return undefined;
}

function collectCommand(node: Node, walk: Walk): string | undefined {
  const own: ShellRedirect[] = [];
  for (const child of node.children) {
    if (!REDIRECT_KINDS.has(child.type)) continue;
    const failure = readRedirect(child, own, walk);
    if (failure) return failure;
  }
  const redirects = [...walk.redirects, ...own];
  const name = node.childForFieldName('name');
  const args = node.childrenForFieldName('argument');
  const root = name?.text ?? '';
  const builtin = checkBuiltin(root, args);
  if (builtin) return builtin;
  const script = name ? wrappedScript(name.text, args) : undefined;
  if (script !== undefined) {
    if (walk.depth >= MAX_WRAPPER_DEPTH) return 'shell wrappers are nested too deeply';
    const inner = parseWith(walk.parser, script, walk.depth + 1);
    if (!inner.ok) return inner.reason;
    for (const command of inner.commands) {
      const all = [...redirects, ...command.redirects];
      walk.commands.push({ ...command, redirects: all, redirected: all.some(countsAsRedirection) });
    }
  } else {
    walk.commands.push({
      text: commandText(node),
      root,
      words: name ? [name, ...args].map(shellWord) : [],
      redirected: redirects.some(countsAsRedirection),
      redirects,
    });
  }
  // Arguments may hold `$(…)`, backticks or `<(…)`: those run too.
  for (const child of node.children) {
    if (REDIRECT_KINDS.has(child.type)) continue;
    const failure =
      child.type === 'variable_assignment'
        ? checkAssignment(child, walk)
        : collect(child, { ...walk, redirects: [] });
    if (failure) return failure;
  }
  return undefined;
}

/** `declare`, `export`, `local`, `readonly`, `typeset`, `unset`: a command, if its arguments are plain. */
function collectDeclaration(node: Node, walk: Walk): string | undefined {
  const keyword = node.firstChild?.text ?? '';
  const args = node.namedChildren.filter((child): child is Node => child !== null);
  for (const arg of args) {
    // Values are re-parsed by these builtins (`declare -a x='($(id))'`, `unset 'a[$(id)]'`):
    // anything beyond plain names and values needs approval.
    if (/[[$`(]/.test(arg.text)) return notUnderstood(`\`${keyword}\` with an expansion, subscript or array`);
    if (arg.type === 'variable_assignment') {
      const failure = checkAssignment(arg, walk);
      if (failure) return failure;
    } else if (!isPlainWord(arg) && arg.type !== 'variable_name') {
      return notUnderstood(`\`${keyword}\` with an expansion in its arguments`);
    }
    if (arg.type === 'variable_name' && isSensitiveVariable(arg.text)) {
      return notUnderstood(`\`${keyword} ${arg.text}\``);
    }
  }
  walk.commands.push({
    text: node.text,
    root: keyword,
    words: [],
    redirected: walk.redirects.some(countsAsRedirection),
    redirects: walk.redirects,
  });
  return undefined;
}

/** `NAME=value`: a plain name (no subscript, nothing that changes later commands) and a checked value. */
function checkAssignment(node: Node, walk: Walk): string | undefined {
  const name = node.childForFieldName('name');
  if (name?.type !== 'variable_name') return notUnderstood('an assignment to an array element');
  if (isSensitiveVariable(name.text)) return notUnderstood(`an assignment to ${name.text}`);
  for (const child of node.children) {
    if (child === null || child.id === name.id) continue;
    if (child.type === 'array') return notUnderstood('an array assignment');
    const failure = collect(child, { ...walk, redirects: [] });
    if (failure) return failure;
  }
  return undefined;
}

function isSensitiveVariable(name: string): boolean {
  return SENSITIVE_VARIABLES.has(name) || /^(?:GIT_|LD_|BASH_FUNC|DYLD_)/.test(name);
}

/** Builtins that evaluate their arguments need approval, unless they are harmless with plain ones. */
function checkBuiltin(root: string, args: Node[]): string | undefined {
  if (!EVALUATING_BUILTINS.has(root)) return undefined;
  // `command -v name` only looks a name up (scripts test for tools this way).
  if (
    root === 'command' &&
    /^-[vV]$/.test(args[0]?.text ?? '') &&
    args.slice(1).every((arg) => isPlainWord(arg) && !/[[$`]/.test(arg.text))
  ) {
    return undefined;
  }
  if (!PLAIN_ARGUMENT_BUILTINS.has(root))
    return notUnderstood(`\`${root}\` (it runs code or evaluates names)`);
  for (const arg of args) {
    if (isSensitiveVariable(arg.text)) return notUnderstood(`\`${root} ${arg.text}\``);
    if (!isPlainWord(arg) || /[[$`]/.test(arg.text)) {
      return notUnderstood(`\`${root}\` with an expansion or subscript in its arguments`);
    }
    if (
      (root === 'test' || root === '[') &&
      !SAFE_TEST_OPERATORS.has(arg.text) &&
      /^-[a-z]{2}$/.test(arg.text)
    ) {
      return notUnderstood(`\`${root} ${arg.text}\` (arithmetic on its operands)`);
    }
    if ((root === 'test' || root === '[') && arg.text === '-v') return notUnderstood(`\`${root} -v\``);
    if (/^[A-Za-z_]\w*=/.test(arg.text) && isSensitiveVariable(arg.text.slice(0, arg.text.indexOf('=')))) {
      return notUnderstood(`\`${root} ${arg.text}\``);
    }
  }
  return undefined;
}

/** A word with nothing for the shell to expand (quotes allowed). */
function isPlainWord(node: Node): boolean {
  if (node.type === 'word' || node.type === 'number' || node.type === 'raw_string') return true;
  if (node.type === 'string') return node.namedChildren.every((child) => child?.type === 'string_content');
  if (node.type === 'concatenation')
    return node.namedChildren.every((child) => child !== null && isPlainWord(child));
  return false;
}

/** `[[ … ]]` and `[ … ]`: file and string tests only; arithmetic comparisons and `-v` need approval. */
function checkTest(node: Node, walk: Walk): string | undefined {
  for (const child of node.children) {
    if (child.type === 'test_operator' || !child.isNamed) {
      if (!SAFE_TEST_OPERATORS.has(child.text)) return notUnderstood(`the test \`${child.text}\``);
      continue;
    }
    if (
      child.type === 'unary_expression' ||
      child.type === 'binary_expression' ||
      child.type === 'parenthesized_expression'
    ) {
      const failure = checkTest(child, walk);
      if (failure) return failure;
      continue;
    }
    const failure = collect(child, { ...walk, redirects: [] });
    if (failure) return failure;
  }
  return undefined;
}

/** `${…}`: only the operators that transform a value; no subscripts, indirection or `@` transforms. */
function checkExpansion(node: Node, walk: Walk): string | undefined {
  for (const child of node.children) {
    if (!child.isNamed) {
      if (!SAFE_EXPANSION_OPERATORS.has(child.type))
        return notUnderstood(`the expansion operator \`${child.type}\``);
      continue;
    }
    if (child.type === 'subscript') return notUnderstood('an array subscript (evaluated as arithmetic)');
    if (child.type === 'number' && node.children.some((c) => c.type === ':')) {
      return notUnderstood('a substring expansion');
    }
    const failure = collect(child, { ...walk, redirects: [] });
    if (failure) return failure;
  }
  return undefined;
}

/** `$(( … ))`: numbers and operators only; a variable's value would be evaluated as arithmetic. */
function checkArithmetic(node: Node): string | undefined {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const child of current.children) {
      if (!child.isNamed) continue;
      if (child.type === 'number') continue;
      if (
        child.type === 'binary_expression' ||
        child.type === 'unary_expression' ||
        child.type === 'parenthesized_expression'
      ) {
        stack.push(child);
        continue;
      }
      return notUnderstood('arithmetic on variables or substitutions');
    }
  }
  return undefined;
}

/** Reads one redirection node into `out` (a here-document may hold more, and commands). */
function readRedirect(node: Node, out: ShellRedirect[], walk: Walk): string | undefined {
  if (node.type === 'file_redirect') {
    const operator = node.children.find((child) => !child.isNamed)?.text ?? '>';
    const destinations = node.childrenForFieldName('destination');
    if ((operator === '>&-' || operator === '<&-') && destinations.length === 0) {
      out.push({ operator, touchesFile: false }); // Closes a descriptor.
      return undefined;
    }
    if (destinations.length !== 1) return notUnderstood('a redirection with several targets');
    const destination = destinations[0]!;
    const duplicates = operator === '>&' || operator === '<&';
    if (duplicates && /^(?:\d+-?|-)$/.test(destination.text)) {
      out.push({ operator, touchesFile: false });
      return undefined;
    }
    const target = literalValue(destination);
    out.push({ operator, ...(target !== undefined ? { target } : {}), touchesFile: target !== '/dev/null' });
    // The target itself may hold a substitution.
    return collect(destination, { ...walk, redirects: [] });
  }
  if (node.type === 'herestring_redirect') {
    out.push({ operator: '<<<', touchesFile: false });
    return collectChildren(node, { ...walk, redirects: [] });
  }
  out.push({ operator: node.firstChild?.text ?? '<<', touchesFile: false });
  // A quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\EOF`) makes the body literal text.
  const start = node.children.find((child) => child.type === 'heredoc_start')?.text ?? '';
  const literalBody = /['"\\]/.test(start);
  for (const child of node.children) {
    if (child.type === 'heredoc_body' && literalBody) continue;
    if (child.type === 'file_redirect') {
      const failure = readRedirect(child, out, walk);
      if (failure) return failure;
      continue;
    }
    const failure = collect(child, { ...walk, redirects: [] });
    if (failure) return failure;
  }
  return undefined;
}

/** A here-document or here-string counts as a redirection for the rules, like a file. */
function countsAsRedirection(redirect: ShellRedirect): boolean {
  return redirect.touchesFile || redirect.operator.startsWith('<<');
}

/** The file a redirection target names, when it is literal: no expansion, tilde or glob. */
function literalValue(node: Node): string | undefined {
  if (node.type === 'raw_string') return node.text.slice(1, -1);
  if (node.type === 'string') {
    return node.namedChildren.every((child) => child?.type === 'string_content')
      ? node.text.slice(1, -1)
      : undefined;
  }
  if (node.type === 'word' || node.type === 'number') {
    const text = node.text;
    if (/^~|[*?[\]{}$`\\]/.test(text)) return undefined;
    return text;
  }
  return undefined;
}

/** A word's value when it is literal, and whether it may be an option once expanded. */
function shellWord(node: Node): ShellWord {
  const value = wordValue(node);
  if (value !== undefined) return { text: node.text, value, mayBeOption: value.startsWith('-') };
  // Expansion leaves a leading plain character (outside or just inside quotes) in place.
  return { text: node.text, mayBeOption: !/^["']?[A-Za-z0-9_./+:,=@%]/.test(node.text) };
}

/** The value of a word with nothing to expand: no `$`, backquote, glob, brace list or tilde. */
function wordValue(node: Node): string | undefined {
  if (node.type === 'command_name') return node.firstNamedChild ? wordValue(node.firstNamedChild) : undefined;
  if (node.type === 'raw_string') return node.text.slice(1, -1);
  if (node.type === 'number') return node.text;
  if (node.type === 'string') {
    return node.namedChildren.every((child) => child?.type === 'string_content')
      ? node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, '$1')
      : undefined;
  }
  if (node.type === 'concatenation') {
    let value = '';
    for (const child of node.namedChildren) {
      const part = child ? wordValue(child) : undefined;
      if (part === undefined) return undefined;
      value += part;
    }
    return value;
  }
  if (node.type !== 'word') return undefined;
  let value = '';
  const text = node.text;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '\\') {
      value += text[index + 1] ?? '';
      index += 1;
    } else if (/[$`*?[{~]/.test(char)) {
      return undefined;
    } else {
      value += char;
    }
  }
  return value;
}

/** The command without redirections the grammar attached inside it. */
function commandText(node: Node): string {
  if (!node.children.some((child) => REDIRECT_KINDS.has(child.type))) return node.text;
  return node.children
    .filter((child) => !REDIRECT_KINDS.has(child.type))
    .map((child) => child.text)
    .join(' ');
}

/** The script of `bash -c '…'` (any shell, combined flags like `-lc`) or of `eval …`. */
function wrappedScript(name: string, args: Node[]): string | undefined {
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (base === 'eval') return args.length > 0 ? args.map(unquote).join(' ') : undefined;
  if (!SHELL_WRAPPERS.has(base)) return undefined;
  const flag = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg.text));
  const script = flag >= 0 ? args[flag + 1] : undefined;
  return script ? unquote(script) : undefined;
}

/** A word's value as the shell would pass it (expansions left as written). */
function unquote(node: Node): string {
  const text = node.text;
  if (node.type === 'raw_string') return text.slice(1, -1);
  if (node.type === 'string') return text.slice(1, -1).replace(/\\([$`"\\\n])/g, '$1');
  if (node.type === 'word') return text.replace(/\\(.)/g, '$1');
  return text;
}
