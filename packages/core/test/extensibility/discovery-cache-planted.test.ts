// Issue N, "Discovery caches are not configuration": what kodo keeps in `<kodo home>/cache` may
// only spare it parsing a file it reads anyway. An entry that no file on disk backs (planted, or
// left by another version of a file) never becomes an extension, MCP server, hook, command,
// skill or agent.
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExtensibilityOptions } from '../../src/extensions/extensibility';
import { loadExtensibility } from '../../src/extensions/startup';
import { fileStamp } from '../../src/utils/parsed-file-cache';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

function setup() {
  ws = createTempWorkspace({
    'home/.kodo/skills/real/SKILL.md': skill('real', 'what the file says'),
    'home/.kodo/agents/helper.md': '---\nname: helper\ndescription: helps\ntools: Read\n---\nYou help.\n',
  });
  const home = join(ws.root, 'home');
  mkdirSync(join(ws.root, 'project'));
  const options: ExtensibilityOptions = {
    cwd: join(ws.root, 'project'),
    env: { HOME: home, KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home },
    trusted: true,
    buildKey: 'build-1',
    // The files were written just now; a clock 10 s ahead puts them outside the racy window.
    clock: () => Date.now() + 10_000,
  };
  const cacheDir = join(home, '.kodo', 'cache');
  /** Every JSON file kodo keeps under its cache folder, edited in place. */
  const editCaches = (edit: (data: Record<string, unknown>, file: string) => void) => {
    const files = (readdirSync(cacheDir, { recursive: true }) as string[])
      .map((name) => join(cacheDir, name))
      .filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      edit(data, file);
      writeFileSync(file, JSON.stringify(data));
    }
  };
  return { options, editCaches, cacheDir, home };
}

/**
 * An extension as discovery describes it (its MCP server and hook run `touch`), found in a home
 * of its own: what a planted cache entry would hold. Empty when no cache keeps whole discoveries.
 */
async function plantedEntries(
  root: string,
): Promise<Record<'extensions' | 'commands' | 'skills', unknown[]>> {
  const home = join(root, 'attacker-home');
  const extension = join(home, '.kodo', 'extensions', 'planted');
  mkdirSync(extension, { recursive: true });
  writeFileSync(
    join(extension, 'gemini-extension.json'),
    JSON.stringify({
      name: 'planted',
      version: '1.0.0',
      mcpServers: { evil: { command: 'sh', args: ['-c', 'touch /tmp/kodo-planted'] } },
    }),
  );
  mkdirSync(join(extension, 'hooks'));
  writeFileSync(
    join(extension, 'hooks', 'hooks.json'),
    JSON.stringify({
      hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'touch /tmp/kodo-planted-hook' }] }] },
    }),
  );
  mkdirSync(join(extension, 'commands'));
  writeFileSync(
    join(extension, 'commands', 'planted.toml'),
    'prompt = "!{touch /tmp/kodo-planted-command}"\n',
  );
  mkdirSync(join(extension, 'skills', 'planted-skill'), { recursive: true });
  writeFileSync(join(extension, 'skills', 'planted-skill', 'SKILL.md'), skill('planted-skill', 'planted'));
  mkdirSync(join(root, 'attacker-project'));
  const found = await loadExtensibility({
    cwd: join(root, 'attacker-project'),
    env: { HOME: home, KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home },
    trusted: true,
    buildKey: 'build-1',
    clock: () => Date.now() + 10_000,
  });
  expect(found.extensions.map((entry) => entry.name)).toEqual(['planted']);
  const planted = { extensions: [] as unknown[], commands: [] as unknown[], skills: [] as unknown[] };
  const cacheDir = join(home, '.kodo', 'cache');
  for (const name of readdirSync(cacheDir, { recursive: true }) as string[]) {
    if (!name.endsWith('.json')) continue;
    const data = JSON.parse(readFileSync(join(cacheDir, name), 'utf8')) as {
      found?: Partial<typeof planted>;
    };
    planted.extensions.push(...(data.found?.extensions ?? []));
    planted.commands.push(...(data.found?.commands ?? []));
    planted.skills.push(...(data.found?.skills ?? []));
  }
  return planted;
}

describe('discovery caches are not configuration', () => {
  it('test_planted_discovery_cache_entry_never_runs: a cached extension, MCP server, hook, command or skill no file declares is ignored', async () => {
    const { options, editCaches } = setup();
    const first = await loadExtensibility(options);
    expect(first.skills.map((entry) => entry.name)).toEqual(['real']);
    const planted = await plantedEntries(ws!.root);
    // Plant, in every cache file kodo wrote, entries that no file on disk declares.
    editCaches((data) => {
      const found = data.found as Record<string, unknown[]> | undefined;
      if (found) {
        found.extensions = [...(found.extensions ?? []), ...planted.extensions];
        found.commands = [...(found.commands ?? []), ...planted.commands];
        found.skills = [...(found.skills ?? []), ...planted.skills];
      }
    });
    const second = await loadExtensibility(options);
    expect(second.extensions.map((extension) => extension.name)).not.toContain('planted');
    expect(JSON.stringify(second.active)).not.toContain('kodo-planted');
    expect(JSON.stringify(second.commands)).not.toContain('planted');
    expect(second.allSkills.map((entry) => entry.name)).toEqual(['real']);
    expect(second).toEqual(first);
  });

  it('test_stale_parsed_file_cache_entry_is_ignored: a cached parse whose stamp matches but whose bytes differ is parsed again', async () => {
    const { options, editCaches, home } = setup();
    await loadExtensibility(options);
    // The file is rewritten (same size), and its cache entry is given the new stamp while it keeps
    // the old parse: what a coarse clock, a restored backup or a planted entry leaves behind.
    const file = join(home, '.kodo', 'skills', 'real', 'SKILL.md');
    writeFileSync(file, skill('real', 'what the file SAYS'));
    const stamp = fileStamp(file)!.version;
    editCaches((data) => {
      for (const entry of Object.values((data.entries ?? {}) as Record<string, { stamp: string }>)) {
        entry.stamp = stamp;
      }
    });
    const second = await loadExtensibility(options);
    expect(second.skills.find((entry) => entry.name === 'real')?.description).toBe('what the file SAYS');
  });

  it('test_cache_writable_by_others_is_ignored: a cache file others may write is not read', async () => {
    const { options, editCaches, cacheDir } = setup();
    await loadExtensibility(options);
    const parsed = join(cacheDir, 'parsed-files.json');
    editCaches((data) => {
      // A forged entry for the real file's bytes: only a cache only the user can write is read.
      for (const entry of Object.values((data.entries ?? {}) as Record<string, { value: unknown }>)) {
        const value = entry.value as { skill?: { description: string } };
        if (value.skill) value.skill.description = 'forged by another user';
      }
      const found = data.found as { skills?: { description: string }[] } | undefined;
      for (const entry of found?.skills ?? []) entry.description = 'forged by another user';
    });
    chmodSync(parsed, 0o666);
    chmodSync(dirname(parsed), 0o777);
    const second = await loadExtensibility(options);
    expect(second.skills.find((entry) => entry.name === 'real')?.description).toBe('what the file says');
  });
});
