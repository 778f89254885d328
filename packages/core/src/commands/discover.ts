import { join, relative, sep } from 'node:path';
import { type DiscoveryFs, nodeDiscoveryFs } from '../utils/discovery-fs';
import { pathIdentity } from '../utils/fs-read';
import { type CommandFileProblem, parseMarkdownCommand, parseTomlCommand } from './command-file';
import type { CommandSource, CustomCommand } from './definition';
import type { CommandDir } from './locations';

export interface CommandDiscovery {
  commands: CustomCommand[];
  /** Unreadable files and name clashes, one line each. */
  warnings: string[];
}

/**
 * Reads every command in `dirs` and names them. Built-in commands (`reserved`) keep their names.
 * A clash between scopes renames every party with its source (`user.sync`, `workspace.sync`,
 * `<extension>:sync`), as Gemini CLI does. A Claude Code plugin's command answers to its own name
 * when that is unique and to `<plugin>:<name>` only on a clash, as in Claude Code (where the
 * plugin yields: the other command keeps the plain name). Inside one scope the later folder's
 * file wins, with a warning.
 */
export async function discoverCommands(
  dirs: readonly CommandDir[],
  options: { reserved?: readonly string[]; fs?: DiscoveryFs } = {},
): Promise<CommandDiscovery> {
  const fs = options.fs ?? nodeDiscoveryFs;
  const warnings: string[] = [];
  const found: CustomCommand[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    // Run from the home folder, the project's folders are the user's: read them once.
    const real = pathIdentity(dir.dir, fs);
    if (seen.has(real)) continue;
    seen.add(real);
    for (const file of commandFiles(dir, fs)) {
      const source: CommandSource = {
        scope: dir.scope,
        ...(dir.extensionName ? { extensionName: dir.extensionName } : {}),
        ...(dir.extensionPath ? { extensionPath: dir.extensionPath } : {}),
      };
      let text: string;
      try {
        text = fs.readText(file.path);
      } catch (error) {
        warnings.push(`Could not read command file ${file.path}: ${(error as Error).message}`);
        continue;
      }
      const parsed =
        file.format === 'toml'
          ? await parseTomlCommand(file.path, file.name, text, source)
          : await parseMarkdownCommand(file.path, file.name, text, source);
      if (isProblem(parsed)) {
        warnings.push(parsed.message);
        continue;
      }
      const sameScope = found.findIndex(
        (other) =>
          other.name === parsed.name &&
          other.scope === parsed.scope &&
          other.extensionName === parsed.extensionName,
      );
      if (sameScope >= 0) {
        warnings.push(
          `Command "/${parsed.name}" from ${parsed.path} overrides the one from ${found[sameScope]!.path}.`,
        );
        found.splice(sameScope, 1);
      }
      found.push(parsed);
    }
  }
  return { commands: resolveConflicts(found, new Set(options.reserved ?? [])), warnings };
}

function resolveConflicts(commands: CustomCommand[], reserved: ReadonlySet<string>): CustomCommand[] {
  // Plugin commands yield: only the others count when telling whether a user, project or
  // extension command clashes.
  const counts = new Map<string, number>();
  const pluginCounts = new Map<string, number>();
  for (const command of commands) {
    const tally = command.scope === 'plugin' ? pluginCounts : counts;
    tally.set(command.name, (tally.get(command.name) ?? 0) + 1);
  }
  const taken = new Set<string>();
  const out: CustomCommand[] = [];
  for (const command of commands) {
    const others =
      command.scope === 'plugin'
        ? (counts.get(command.name) ?? 0) + (pluginCounts.get(command.name) ?? 0)
        : (counts.get(command.name) ?? 0);
    const clash = others > 1 || reserved.has(command.name);
    let name = clash ? prefixedName(command) : command.name;
    for (let suffix = 1; taken.has(name) || reserved.has(name); suffix += 1)
      name = `${command.name}${suffix}`;
    taken.add(name);
    out.push({ ...command, name });
  }
  return out;
}

function prefixedName(command: CustomCommand): string {
  switch (command.scope) {
    case 'user':
      return `user.${command.name}`;
    case 'workspace':
      return `workspace.${command.name}`;
    case 'extension':
    case 'plugin':
      return `${command.extensionName}:${command.name}`;
  }
}

function isProblem(value: CustomCommand | CommandFileProblem): value is CommandFileProblem {
  return !('template' in value);
}

interface CommandFileEntry {
  path: string;
  /** `git/commit.toml` → `git:commit`. */
  name: string;
  format: 'toml' | 'markdown';
}

/** Command files under `dir`, any depth, sorted so the result does not depend on the disk. */
function commandFiles(dir: CommandDir, fs: DiscoveryFs): CommandFileEntry[] {
  if (!fs.existsSync(dir.dir)) return [];
  let entries: string[];
  try {
    entries = fs.listTree(dir.dir);
  } catch {
    return [];
  }
  const out: CommandFileEntry[] = [];
  for (const entry of entries.sort()) {
    if (entry.split(sep).some((part) => part === 'node_modules' || part.startsWith('.'))) continue;
    const format = entry.endsWith('.toml') ? 'toml' : entry.endsWith('.md') ? 'markdown' : undefined;
    if (!format || !dir.formats.includes(format)) continue;
    const path = join(dir.dir, entry);
    const name = relative(dir.dir, path)
      .replace(/\.(toml|md)$/, '')
      .split(sep)
      .join(':');
    out.push({ path, name, format });
  }
  return out;
}
