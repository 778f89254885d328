import { mainFlags } from '../args';
import { asksForHelp } from './asks-for-help';

export interface CompletionCommandContext {
  args: string[];
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const COMPLETION_HELP = `Usage: kodo completion bash|zsh|fish

Prints a shell completion script for kodo's subcommands and flags. Load it with:
  bash:  source <(kodo completion bash)        (or add that line to ~/.bashrc)
  zsh:   source <(kodo completion zsh)         (after compinit, e.g. in ~/.zshrc)
  fish:  kodo completion fish > ~/.config/fish/completions/kodo.fish
`;

/** The subcommands and, for those with their own, their actions. */
export const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  demo: [],
  doctor: ['--json'],
  mcp: ['add', 'remove', 'list', 'auth', 'serve'],
  extensions: ['install', 'link', 'config', 'list', 'enable', 'disable', 'update', 'uninstall'],
  skills: ['list', 'enable', 'disable'],
  agents: ['list', 'acknowledge'],
  hooks: ['list', 'enable', 'disable'],
  models: ['--json'],
  completion: ['bash', 'zsh', 'fish'],
};

const APPROVAL_MODES = ['default', 'auto_edit', 'yolo', 'plan'];
const OUTPUT_FORMATS = ['text', 'json', 'stream-json'];

/** `kodo completion <shell>`: the script on stdout. */
export function runCompletionCommand(context: CompletionCommandContext): number {
  const [shell] = context.args;
  if (asksForHelp(context.args)) {
    context.stdout.write(COMPLETION_HELP);
    return 0;
  }
  const script = shell === 'bash' ? bash() : shell === 'zsh' ? zsh() : shell === 'fish' ? fish() : undefined;
  if (script === undefined) {
    context.stderr.write(
      `${COMPLETION_HELP}\n${shell ? `Unknown shell: ${shell}` : 'Name a shell: bash, zsh or fish.'}\n`,
    );
    return 1;
  }
  context.stdout.write(script);
  return 0;
}

function bash(): string {
  const flags = mainFlags().flatMap((flag) => [flag.long, ...(flag.short ? [flag.short] : [])]);
  const actions = Object.entries(SUBCOMMANDS)
    .map(([command, words]) => `    ${command}) words="${words.join(' ')}" ;;`)
    .join('\n');
  return `# kodo completion for bash: source <(kodo completion bash)
_kodo() {
  local cur prev words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    --approval-mode) COMPREPLY=($(compgen -W "${APPROVAL_MODES.join(' ')}" -- "$cur")); return ;;
    -o|--output-format) COMPREPLY=($(compgen -W "${OUTPUT_FORMATS.join(' ')}" -- "$cur")); return ;;
    --fake-responses|--record-responses|--policy|--admin-policy) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  if [ "$COMP_CWORD" -eq 2 ]; then
    case "\${COMP_WORDS[1]}" in
${actions}
      *) words="" ;;
    esac
    if [ -n "$words" ]; then COMPREPLY=($(compgen -W "$words" -- "$cur")); return; fi
  fi
  if [ "$COMP_CWORD" -eq 1 ] && [[ "$cur" != -* ]]; then
    COMPREPLY=($(compgen -W "${Object.keys(SUBCOMMANDS).join(' ')}" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -W "${flags.join(' ')}" -- "$cur"))
}
complete -o default -F _kodo kodo
`;
}

function zsh(): string {
  const specs = mainFlags().map((flag) => {
    const value = flag.takesValue ? ':value:' : '';
    const names = flag.short ? `{${flag.short},${flag.long}}` : flag.long;
    return `    '${flag.short ? `(${flag.short} ${flag.long})` : ''}'${names}'[${flag.long.slice(2)}]${value}'`;
  });
  const actions = Object.entries(SUBCOMMANDS)
    .map(([command, words]) => `      ${command}) compadd -- ${words.join(' ')} ;;`)
    .join('\n');
  return `#compdef kodo
# kodo completion for zsh: source <(kodo completion zsh)
_kodo() {
  if (( CURRENT == 3 )); then
    case "\${words[2]}" in
${actions}
    esac
  fi
  if (( CURRENT == 2 )) && [[ "\${words[CURRENT]}" != -* ]]; then
    compadd -- ${Object.keys(SUBCOMMANDS).join(' ')}
  fi
  _arguments -s \\
${specs.join(' \\\n')} \\
    '*::query:_files'
}
compdef _kodo kodo
`;
}

function fish(): string {
  const lines = ['# kodo completion for fish: kodo completion fish > ~/.config/fish/completions/kodo.fish'];
  lines.push('complete -c kodo -f');
  const top = Object.keys(SUBCOMMANDS).join(' ');
  for (const command of Object.keys(SUBCOMMANDS)) {
    lines.push(`complete -c kodo -n "not __fish_seen_subcommand_from ${top}" -a ${command}`);
  }
  for (const [command, words] of Object.entries(SUBCOMMANDS)) {
    if (words.length > 0)
      lines.push(`complete -c kodo -n "__fish_seen_subcommand_from ${command}" -a "${words.join(' ')}"`);
  }
  for (const flag of mainFlags()) {
    const short = flag.short && flag.short.length === 2 ? ` -s ${flag.short.slice(1)}` : '';
    const values =
      flag.long === '--approval-mode'
        ? ` -x -a "${APPROVAL_MODES.join(' ')}"`
        : flag.long === '--output-format'
          ? ` -x -a "${OUTPUT_FORMATS.join(' ')}"`
          : flag.takesValue
            ? ' -r'
            : '';
    lines.push(`complete -c kodo -l ${flag.long.slice(2)}${short}${values}`);
  }
  return `${lines.join('\n')}\n`;
}
