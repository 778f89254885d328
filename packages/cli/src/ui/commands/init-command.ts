import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONTEXT_FILE_NAMES, type Settings } from '@kodo/core/engine';
import { describeScan, scanProject } from '../project-scan';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

/** The file `/init` writes: the first `context.fileName` (AGENTS.md if so configured), else KODO.md. */
export function contextFileName(settings: Settings): string {
  const configured = settings.context?.fileName;
  const first = typeof configured === 'string' ? configured : configured?.[0];
  return first && first.trim() !== '' ? first.trim() : DEFAULT_CONTEXT_FILE_NAMES[0]!;
}

function initPrompt(name: string, scan: string): string {
  return [
    `Write ${name} for this project: the context file every later session reads first. Analyse the project from the scan below (read more files with your tools where the scan leaves a question open), then create ${name} in the project root with the write_file tool.`,
    '',
    `${name} should be short and specific to this project (about 40–150 lines of Markdown), with:`,
    '- what the project is and its main parts (where the code, the tests and the docs live);',
    '- the exact commands to install, build, run, test (all and one test) and lint, taken from the manifests and scripts;',
    '- the conventions a contributor must follow (language, style, formatting, commit and testing rules) as far as the files show them;',
    '- anything surprising a newcomer would trip over.',
    'Do not invent commands or facts the files do not support; leave out sections you cannot fill.',
    '',
    '# Project scan',
    '',
    scan,
  ].join('\n');
}

export const initCommand: SlashCommand = terminalBuiltin('init', {
  subcommands: [{ name: '--force', description: 'rewrite the context file that is already there' }],
  async run({ args, cwd, settings, addItem, sendPrompt }) {
    const name = contextFileName(settings.merged);
    const target = join(cwd, name);
    const force = args.split(/\s+/).includes('--force');
    if (existsSync(target) && !force) {
      addItem({
        kind: 'info',
        tone: 'warning',
        text: `${name} already exists here; nothing was changed. To have it rewritten, run /init --force (the write still asks for approval).`,
      });
      return;
    }
    addItem({ kind: 'info', tone: 'info', text: `Scanning the project to write ${name}…` });
    const scan = await scanProject(cwd, { skip: [name] });
    await sendPrompt(initPrompt(name, describeScan(scan)), `/init${force ? ' --force' : ''}`);
  },
});
