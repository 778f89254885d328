import type { FunctionDeclaration } from '../../contracts/messages';

/**
 * The compact tool profile (`tools.profile: "compact"`, automatic for small context windows):
 * the seven tools a small model actually uses, each with a one-line description and only the
 * parameters it needs. Every parameter here is one of the full tool's own, with the same type,
 * and every parameter the full tool requires is here (a test checks both), so a call made from
 * these declarations validates and runs exactly like one made from the full ones.
 */

const string = (description: string) => ({ type: 'string', description });
const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const COMPACT_TOOL_DECLARATIONS: readonly FunctionDeclaration[] = [
  {
    name: 'read_file',
    description: 'Read a text file (2000 lines at a time).',
    parametersJsonSchema: object(
      {
        file_path: string('File path.'),
        start_line: { type: 'integer', minimum: 1, description: 'First line (1-based).' },
      },
      ['file_path'],
    ),
  },
  {
    name: 'write_file',
    description: 'Write a whole file (created if missing).',
    parametersJsonSchema: object(
      { file_path: string('File path.'), content: string('The complete content.') },
      ['file_path', 'content'],
    ),
  },
  {
    name: 'replace',
    description: 'Replace one exact, unique piece of text in a file.',
    parametersJsonSchema: object(
      {
        file_path: string('File path.'),
        instruction: string('What the change does.'),
        old_string: string('Exact text to replace.'),
        new_string: string('Replacement text.'),
      },
      ['file_path', 'instruction', 'old_string', 'new_string'],
    ),
  },
  {
    name: 'list_directory',
    description: 'List a directory.',
    parametersJsonSchema: object({ dir_path: string('Directory path.') }, ['dir_path']),
  },
  {
    name: 'glob',
    description: 'Find files by glob pattern.',
    parametersJsonSchema: object({ pattern: string("Glob, e.g. '**/*.ts'.") }, ['pattern']),
  },
  {
    name: 'grep_search',
    description: 'Search file contents with a regular expression.',
    parametersJsonSchema: object(
      {
        pattern: string('Regular expression.'),
        dir_path: string('Directory to search.'),
        include_pattern: string("Glob of files to search, e.g. '*.py'."),
      },
      ['pattern'],
    ),
  },
  {
    name: 'run_shell_command',
    description: 'Run a bash command and return its output.',
    parametersJsonSchema: object({ command: string('The command.') }, ['command']),
  },
];

const BY_NAME = new Map(COMPACT_TOOL_DECLARATIONS.map((declaration) => [declaration.name, declaration]));

/**
 * The compact profile of a tool list: the compact tools among the given ones (so policy-hidden
 * or excluded tools stay out), in the order given, with their compact declarations.
 */
export function compactDeclarations(declarations: readonly FunctionDeclaration[]): FunctionDeclaration[] {
  return declarations.flatMap((declaration) => {
    const compact = BY_NAME.get(declaration.name);
    return compact ? [compact] : [];
  });
}
