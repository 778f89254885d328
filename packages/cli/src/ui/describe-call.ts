import type { ToolRegistry } from '@kodo/core/engine';
import type { CallDescriber } from './turn-accumulator';

/** Arguments that say best what a call does, in order of preference. */
const DESCRIPTIVE_ARGS = ['command', 'file_path', 'dir_path', 'path', 'pattern', 'url', 'query', 'prompt'];
const MAX_DESCRIPTION = 200;

/**
 * Names a call for the tool box: the tool's display name from the registry, and a one-line
 * description from its most telling argument (the command, the path, the pattern…). The events
 * carry only name and arguments, and the UI must not load a tool's code just to label it.
 */
export function callDescriber(tools: Pick<ToolRegistry, 'get'>): CallDescriber {
  return (name, args) => {
    const displayName = tools.get(name)?.displayName ?? name;
    const parts: string[] = [];
    for (const key of DESCRIPTIVE_ARGS) {
      const value = args[key];
      if (typeof value === 'string' && value.trim() !== '') {
        parts.push(value);
        if (key !== 'pattern') break;
      }
    }
    if (name === 'run_shell_command' && typeof args.description === 'string' && args.description) {
      parts.push(`(${args.description})`);
    }
    const description = parts.join(' ').replace(/\s*\n\s*/g, ' ⏎ ');
    return {
      displayName,
      description:
        description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
    };
  };
}
