import type { Node, Parser } from 'web-tree-sitter';

/** One simple command found in a shell line, with where its output goes. */
export interface ShellSubCommand {
  /** The command's own text (assignments, name, arguments; not the redirections around it). */
  text: string;
  /** Its first word, e.g. `git`: what "allow always" remembers. */
  root: string;
  /** Reads or writes a file through `>`, `>>`, `<`, `&>`, `2>`, a here-document… */
  redirected: boolean;
}

export type ParsedShell = { ok: true; commands: ShellSubCommand[] } | { ok: false; reason: string };

export interface ShellParser {
  /**
   * Splits a command line into every simple command it would run: the parts of `&&`, `||`, `;`,
   * `|`, `&` and newlines, the bodies of subshells, functions and loops, `$(…)`, backticks and
   * process substitutions, and the scripts of `bash -c "…"` and `eval` wrappers.
   */
  parse(command: string): ParsedShell;
}

/** Shells whose `-c <script>` argument is unwrapped and checked like the outer line. */
const SHELL_WRAPPERS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash']);
const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
/** Wrappers nest (`bash -c "sh -c '…'"`); past this depth the line is treated as unparsable. */
const MAX_WRAPPER_DEPTH = 4;

/**
 * Loads tree-sitter's bash grammar (WebAssembly). Costs ~40 ms on first use, so the policy
 * engine loads it only when it first checks a shell command.
 */
export async function loadShellParser(): Promise<ShellParser> {
  const [{ Parser: TreeSitter, Language }, { createRequire }] = await Promise.all([
    import('web-tree-sitter'),
    import('node:module'),
  ]);
  // Resolved from this module's location: the source tree in tests, the bundle's chunk dir in
  // the CLI; both find the packages in node_modules.
  const require = createRequire(import.meta.url);
  await TreeSitter.init({ locateFile: () => require.resolve('web-tree-sitter/web-tree-sitter.wasm') });
  const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
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
    const failure = collect(tree.rootNode, { redirected: false, depth, parser, commands });
    return failure ? { ok: false, reason: failure } : { ok: true, commands };
  } finally {
    // Trees live in WebAssembly memory, which the garbage collector does not see.
    tree.delete();
  }
}

interface Walk {
  redirected: boolean;
  depth: number;
  parser: Parser;
  commands: ShellSubCommand[];
}

/** Walks the syntax tree; returns a reason when part of it cannot be checked. */
function collect(node: Node, walk: Walk): string | undefined {
  switch (node.type) {
    case 'redirected_statement': {
      const redirected = walk.redirected || node.children.some(isFileRedirect);
      return collectChildren(node, { ...walk, redirected });
    }
    case 'command':
      return collectCommand(node, walk);
    case 'command_substitution':
    case 'process_substitution':
      // Their output is captured or piped, not redirected by the enclosing statement.
      return collectChildren(node, { ...walk, redirected: false });
    default:
      return collectChildren(node, walk);
  }
}

function collectChildren(node: Node, walk: Walk): string | undefined {
  for (const child of node.children) {
    const failure = collect(child, walk);
    if (failure) return failure;
  }
  return undefined;
}

function collectCommand(node: Node, walk: Walk): string | undefined {
  const redirected = walk.redirected || node.children.some(isFileRedirect);
  const name = node.childForFieldName('name');
  const script = name ? wrappedScript(name.text, node.childrenForFieldName('argument')) : undefined;
  if (script !== undefined) {
    if (walk.depth >= MAX_WRAPPER_DEPTH) return 'shell wrappers are nested too deeply';
    const inner = parseWith(walk.parser, script, walk.depth + 1);
    if (!inner.ok) return inner.reason;
    for (const command of inner.commands) {
      walk.commands.push(redirected ? { ...command, redirected: true } : command);
    }
  } else {
    walk.commands.push({ text: commandText(node), root: name?.text ?? '', redirected });
  }
  // Arguments may hold `$(…)`, backticks or `<(…)`: those run too.
  return collectChildren(node, { ...walk, redirected: false });
}

/** The command without redirections the grammar attached inside it. */
function commandText(node: Node): string {
  if (!node.children.some((child) => REDIRECT_TYPES.has(child.type))) return node.text;
  return node.children
    .filter((child) => !REDIRECT_TYPES.has(child.type))
    .map((child) => child.text)
    .join(' ');
}

/**
 * A redirection that touches a file. Duplicating a descriptor (`2>&1`, `>&2`, `<&-`) and writing
 * to /dev/null touch none, so they do not count: `npm test 2>&1 | tail` stays allowed.
 */
function isFileRedirect(node: Node): boolean {
  if (!REDIRECT_TYPES.has(node.type)) return false;
  if (node.type !== 'file_redirect') return true;
  const destinations = node.childrenForFieldName('destination');
  const duplicates = node.children.some((child) => child.type === '>&' || child.type === '<&');
  if (duplicates && destinations.every((d) => /^(?:\d+|-)$/.test(d.text))) return false;
  return !destinations.every((d) => d.text === '/dev/null');
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
