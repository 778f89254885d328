import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
// fs/promises is taken in each function: discovery, on the way to the first request, shares this chunk.
import { discoverAgents } from '../agents/discover';
import { loadBuiltin } from '../utils/builtin';
import { fsPromises } from '../utils/fs-async';
import { consentText } from './consent';
import { discoverExtensions, loadExtensionDir } from './discover';
import { ExtensionEnablement } from './enablement';
import { type Extension, INSTALL_METADATA_FILE, type InstallMetadata } from './extension';
import type { ExtensionLocations } from './locations';
import type { ExtensionSettingDecl } from './manifest';
import { forgetSecrets, readSettingValues, writeSetting } from './settings-store';

/** A failed install, update or removal; nothing was changed on disk. */
export class ExtensionInstallError extends Error {
  override readonly name = 'ExtensionInstallError';
}

export interface InstallRequest {
  /** A git URL (`https://`, `git@`, `ssh://`, `file://` …), or a local folder. */
  source: string;
  ref?: string;
  /** `link`: leave the files where they are and load them from there. */
  link?: boolean;
  locations: ExtensionLocations;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Shown the consent text (what the extension brings) before anything is installed; false
   * cancels. Headless callers without `--consent` pass one that refuses.
   */
  confirm: (text: string) => Promise<boolean>;
  /**
   * Asked, after consent, for each of the extension's declared settings; undefined leaves it
   * unset (headless callers, `--skip-settings`). Absent: nothing is asked.
   */
  askSetting?: (setting: ExtensionSettingDecl, extension: Extension) => Promise<string | undefined>;
  signal?: AbortSignal;
}

/** An installed extension and the declared settings still without a value. */
export interface InstalledExtension extends Extension {
  missingSettings: ExtensionSettingDecl[];
  /** What kodo cannot give a plugin's agents (pluginAgentNotes), read before the files moved. */
  notes: string[];
}

const GIT_PREFIXES = [
  'http://',
  'https://',
  'git@',
  'sso://',
  'github:',
  'gitlab:',
  'ssh://',
  'git://',
  'file://',
];

export function isGitSource(source: string): boolean {
  return GIT_PREFIXES.some((prefix) => source.startsWith(prefix)) || source.endsWith('.git');
}

/**
 * Installs an extension (Gemini CLI) or plugin (Claude Code) into kodo's extensions folder.
 * A git source is cloned with the `git` binary into a temp folder inside that folder; a local
 * one is copied there. The consent question comes next; only then is the temp folder renamed
 * into place, so a refusal or a failure at any step leaves nothing half-installed.
 */
export async function installExtension(request: InstallRequest): Promise<InstalledExtension> {
  const { cp, mkdtemp, rename, rm, writeFile } = await fsPromises();
  const { locations } = request;
  const git = isGitSource(request.source);
  if (!git && request.ref)
    throw new ExtensionInstallError('--ref and --auto-update are not applicable for local extensions.');
  const localSource = git ? undefined : resolve(request.cwd, request.source);
  if (localSource && !existsSync(localSource)) throw new ExtensionInstallError('Install source not found.');
  mkdirSync(locations.kodo, { recursive: true });
  const staging = await mkdtemp(join(locations.kodo, '.staging-'));
  try {
    const metadata: InstallMetadata = request.link
      ? { source: localSource!, type: 'link' }
      : git
        ? { source: request.source, type: 'git', ...(request.ref ? { ref: request.ref } : {}) }
        : { source: localSource!, type: 'local' };
    if (git) await cloneInto(request.source, staging, request.ref, request.signal);
    else if (!request.link)
      await cp(localSource!, staging, {
        recursive: true,
        filter: (path) => !path.split(/[\\/]/).includes('.git'),
      });
    await writeFile(join(staging, INSTALL_METADATA_FILE), `${JSON.stringify(metadata, null, 2)}\n`);
    const warnings: string[] = [];
    const extension = loadExtensionDir(staging, {
      origin: 'kodo',
      cwd: request.cwd,
      env: request.env,
      warnings,
    });
    if (!extension) {
      throw new ExtensionInstallError(
        warnings[0] ??
          `No extension found in ${request.source}: it needs a gemini-extension.json or a .claude-plugin/plugin.json.`,
      );
    }
    const existing = discoverExtensions({ locations, cwd: request.cwd, env: request.env }).extensions;
    if (existing.some((other) => other.name === extension.name)) {
      throw new ExtensionInstallError(
        `Extension "${extension.name}" is already installed. Please uninstall it first.`,
      );
    }
    const target = join(locations.kodo, extension.name);
    if (existsSync(target)) {
      throw new ExtensionInstallError(
        `Cannot install extension "${extension.name}" because a directory with that name already exists. Please remove it manually.`,
      );
    }
    const text = consentText(extension, contentsOf(extension), {
      verb: request.link ? 'Linking' : 'Installing',
    });
    if (!(await request.confirm(text)))
      throw new ExtensionInstallError(`Installation cancelled for "${extension.name}".`);
    // Asked before the move, so a cancelled question (Ctrl-C) still leaves nothing installed.
    const answers: { setting: ExtensionSettingDecl; value: string }[] = [];
    for (const setting of extension.settings) {
      const value = request.askSetting ? await request.askSetting(setting, extension) : undefined;
      if (value !== undefined && value !== '') answers.push({ setting, value });
    }
    const notes = await pluginAgentNotes(extension);
    await rename(staging, target);
    const place = { name: extension.name, installDir: target, cwd: request.cwd, env: request.env };
    for (const { setting, value } of answers) writeSetting(place, setting, value, 'user');
    const { missing } = readSettingValues(place, extension.settings, { trusted: false });
    return {
      ...extension,
      installDir: target,
      path: request.link ? extension.path : target,
      missingSettings: missing,
      notes,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Removes an extension kodo installed (Gemini CLI's and Claude Code's own are left to them). */
export async function uninstallExtension(options: {
  name: string;
  locations: ExtensionLocations;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<void> {
  const { rename, rm } = await fsPromises();
  const extension = discoverExtensions(options).extensions.find(
    (candidate) => candidate.name === options.name,
  );
  if (!extension) throw new ExtensionInstallError(`Extension not found: ${options.name}`);
  if (extension.origin !== 'kodo') {
    throw new ExtensionInstallError(
      `Extension "${options.name}" belongs to ${extension.origin === 'gemini' ? 'Gemini CLI' : 'Claude Code'} (${extension.installDir}); remove it there, or disable it with \`kodo extensions disable ${options.name}\`.`,
    );
  }
  // Renamed away first so a crash mid-removal cannot leave a half-deleted extension that loads.
  const trash = join(options.locations.kodo, `.removing-${extension.name}-${process.pid}`);
  await rename(extension.installDir, trash);
  await rm(trash, { recursive: true, force: true });
  ExtensionEnablement.inDirs(options.locations.kodo).remove(extension.name);
  forgetSecrets(extension.name, options.env);
}

export type UpdateOutcome = {
  name: string;
  state: 'updated' | 'up to date' | 'not updatable' | 'error';
  message?: string;
};

/**
 * Re-installs an extension from its source (git: a fresh clone; local: a fresh copy) when its
 * version changed, asking again only if the consent text changed. The old folder stays until
 * the new one is complete.
 */
export async function updateExtension(options: {
  name: string;
  locations: ExtensionLocations;
  cwd: string;
  env: NodeJS.ProcessEnv;
  confirm: (text: string) => Promise<boolean>;
  signal?: AbortSignal;
}): Promise<UpdateOutcome> {
  const { copyFile, cp, mkdtemp, rename, rm, writeFile } = await fsPromises();
  const { locations } = options;
  const current = discoverExtensions(options).extensions.find((candidate) => candidate.name === options.name);
  if (!current)
    return { name: options.name, state: 'error', message: `Extension not found: ${options.name}` };
  if (
    current.origin !== 'kodo' ||
    !current.install ||
    current.install.type === 'link' ||
    current.install.type === 'github-release'
  ) {
    return { name: current.name, state: 'not updatable' };
  }
  const install = current.install;
  const staging = await mkdtemp(join(locations.kodo, '.staging-'));
  try {
    if (install.type === 'git') await cloneInto(install.source, staging, install.ref, options.signal);
    else
      await cp(install.source, staging, {
        recursive: true,
        filter: (path) => !path.split(/[\\/]/).includes('.git'),
      });
    await writeFile(join(staging, INSTALL_METADATA_FILE), `${JSON.stringify(install, null, 2)}\n`);
    // The user-scope setting values stay with the extension across updates.
    const values = join(current.installDir, '.env');
    if (existsSync(values)) await copyFile(values, join(staging, '.env'));
    const warnings: string[] = [];
    const next = loadExtensionDir(staging, { origin: 'kodo', cwd: options.cwd, env: options.env, warnings });
    if (!next)
      return {
        name: current.name,
        state: 'error',
        message: warnings[0] ?? 'The source no longer holds an extension.',
      };
    if (next.name !== current.name) {
      return {
        name: current.name,
        state: 'error',
        message: `The source now holds "${next.name}", not "${current.name}".`,
      };
    }
    if (next.version === current.version && install.type === 'local')
      return { name: current.name, state: 'up to date' };
    const before = consentText(current, contentsOf(current), { verb: 'Updating' });
    const after = consentText(next, contentsOf(next), { verb: 'Updating' });
    if (before !== after && !(await options.confirm(after))) {
      return { name: current.name, state: 'error', message: `Update cancelled for "${current.name}".` };
    }
    const old = join(locations.kodo, `.old-${current.name}-${process.pid}`);
    await rename(current.installDir, old);
    try {
      await rename(staging, current.installDir);
    } catch (error) {
      await rename(old, current.installDir);
      throw error;
    }
    await rm(old, { recursive: true, force: true });
    return { name: current.name, state: next.version === current.version ? 'up to date' : 'updated' };
  } catch (error) {
    return { name: current.name, state: 'error', message: (error as Error).message };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * What kodo cannot give a Claude Code plugin's agents (tools it has no counterpart for), one line
 * each, as a run reports them (AgentFileResult.notes); none for a Gemini CLI extension.
 */
export async function pluginAgentNotes(extension: Extension): Promise<string[]> {
  if (extension.kind !== 'claude-plugin') return [];
  const found = await discoverAgents(
    extension.agentDirs.map((dir) => ({
      dir,
      scope: 'extension' as const,
      format: 'claude' as const,
      extensionName: extension.name,
      namePrefix: extension.name,
    })),
    { builtins: [] },
  );
  return found.notes;
}

/** The names of the commands, skills, agents and policies an extension's folders hold. */
export function contentsOf(extension: Extension): {
  commands: string[];
  skills: string[];
  agents: string[];
  policies: string[];
} {
  const list = (dirs: string[], pattern: RegExp, options: { recursive?: boolean; dirsOnly?: boolean } = {}) =>
    dirs.flatMap((dir) => {
      try {
        return readdirSync(dir, {
          recursive: options.recursive ?? false,
          encoding: 'utf8',
          withFileTypes: false,
        })
          .filter((entry) => pattern.test(entry))
          .map((entry) => entry.replace(pattern, '').split(/[\\/]/).join(':'))
          .sort();
      } catch {
        return [];
      }
    });
  return {
    commands: list(extension.commandDirs, extension.kind === 'claude-plugin' ? /\.md$/ : /\.toml$/, {
      recursive: true,
    }),
    skills: list(extension.skillDirs, /[\\/]SKILL\.md$/, { recursive: true }),
    agents: list(extension.agentDirs, /\.md$/),
    policies: extension.policiesDir ? list([extension.policiesDir], /\.toml$/) : [],
  };
}

async function cloneInto(
  source: string,
  dir: string,
  ref: string | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const args = ['clone', '--quiet', '--depth', '1', ...(ref ? ['--branch', ref] : []), '--', source, dir];
  // Loaded here, not with the module: discovery shares this chunk and runs on every start.
  const { execFile } = loadBuiltin('node:child_process');
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      args,
      { ...(signal ? { signal } : {}), env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, _stdout, stderr) => {
        if (error) {
          const detail = stderr.trim() || error.message;
          reject(new ExtensionInstallError(`git clone of ${source} failed: ${detail}`));
        } else resolvePromise();
      },
    );
  });
}
