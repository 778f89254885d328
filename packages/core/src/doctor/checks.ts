import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONTEXT_FILE_NAMES } from '../context/memory-files';
import { readCompatNotes } from '../extensions/compat-notes';
import { proxySettings } from '../net/proxy-env';
import { loadExtensionsModule, loadPart } from '../on-demand';
import { probeBwrap } from '../safety/sandbox/bwrap';
import { isSecretEnvName } from '../utils/env';

/**
 * What `kodo doctor` reports: the files of Gemini CLI, Claude Code and Codex that kodo honours,
 * maps or ignores, whether the parts that depend on the machine work, and the environment kodo
 * sees (key names only, never values). Discovery is kodo's own (loadExtensibility), not a copy.
 */
export interface DoctorReport {
  node: string;
  files: FileFinding[];
  found: {
    extensions: string[];
    commands: string[];
    skills: string[];
    agents: string[];
    warnings: string[];
    /** What kodo cannot give a plugin (an agent's tool it has no counterpart for), each once. */
    notes: string[];
  };
  checks: { name: string; ok: boolean; detail: string }[];
  proxy: { https?: string; http?: string; noProxy?: string; extraCaCerts?: string };
  apiKeys: string[];
}

export interface FileFinding {
  path: string;
  /** honoured: read as it is; mapped: read into kodo's own terms; ignored: not read. */
  status: 'honoured' | 'mapped' | 'ignored';
  why: string;
}

const KNOWN_KEYS = [
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENROUTER_API_KEY',
  'GOOGLE_APPLICATION_CREDENTIALS',
];

export async function runDoctorChecks(place: { cwd: string; env: NodeJS.ProcessEnv }): Promise<DoctorReport> {
  const { cwd, env } = place;
  const home = env.HOME ?? '';
  const files: FileFinding[] = [];
  const note = (path: string, status: FileFinding['status'], why: string) => {
    if (existsSync(path)) files.push({ path, status, why });
  };
  for (const dir of [cwd, join(home, '.gemini'), join(home, '.kodo')]) {
    for (const name of DEFAULT_CONTEXT_FILE_NAMES) note(join(dir, name), 'honoured', 'context file');
  }
  // The project's CLAUDE.md is a context file like the others (above); Claude Code's user memory
  // is not: kodo's user context files live in ~/.kodo and ~/.gemini.
  note(
    join(home, '.claude', 'CLAUDE.md'),
    'ignored',
    "Claude Code user context file: not read (kodo's user context files are in ~/.kodo and ~/.gemini)",
  );
  note(join(home, '.gemini', 'settings.json'), 'honoured', 'Gemini CLI user settings');
  note(join(cwd, '.gemini', 'settings.json'), 'honoured', 'Gemini CLI project settings (trusted folders)');
  note(join(home, '.gemini', 'policies'), 'honoured', 'Gemini CLI policies');
  note(join(home, '.gemini', 'commands'), 'honoured', 'Gemini CLI commands');
  note(join(cwd, '.gemini', 'commands'), 'honoured', 'Gemini CLI project commands');
  note(
    join(home, '.claude', 'settings.json'),
    'ignored',
    'Claude Code settings: permissions and hooks are not read',
  );
  note(join(cwd, '.claude', 'settings.json'), 'ignored', 'Claude Code project settings: not read');
  note(join(home, '.claude', 'commands'), 'mapped', 'Claude Code commands, as custom commands');
  note(join(cwd, '.claude', 'commands'), 'mapped', 'Claude Code project commands, as custom commands');
  note(join(home, '.claude', 'skills'), 'honoured', 'Claude Code skills');
  note(join(cwd, '.claude', 'skills'), 'honoured', 'Claude Code project skills');
  note(join(home, '.claude', 'agents'), 'mapped', 'Claude Code agents, as kodo agents');
  note(join(cwd, '.claude', 'agents'), 'mapped', 'Claude Code project agents (once acknowledged)');
  note(
    join(home, '.claude', 'plugins'),
    'mapped',
    'Claude Code plugins, as extensions (kodo extensions list)',
  );
  note(
    join(cwd, '.mcp.json'),
    'honoured',
    "Claude Code's project MCP servers (trusted folders; the project's settings win on a name)",
  );
  note(join(home, '.claude.json'), 'ignored', 'Claude Code user state and MCP servers: not read');
  note(join(home, '.codex', 'config.toml'), 'ignored', 'Codex settings: not read');
  note(join(cwd, '.codex'), 'ignored', 'Codex project folder: not read');

  const extensibility = await (await loadExtensionsModule()).discoverExtensibility({
    cwd,
    env,
    trusted: true,
  });
  const found = {
    extensions: extensibility.extensions.map((extension) => extension.name),
    commands: extensibility.commands.map((command) => command.name),
    skills: extensibility.allSkills.map((skill) => skill.name),
    agents: extensibility.agents
      .filter((agent) => agent.source.scope !== 'builtin')
      .map((agent) => agent.name),
    warnings: extensibility.warnings,
    // Those reported once before (at install, or the run that first found the plugin) and those
    // of plugins found now: the same line from both is one note.
    notes: [...new Set([...readCompatNotes(env).map((note) => note.text), ...extensibility.notes])],
  };

  const checks = await Promise.all([shellParserCheck(), ripgrepCheck(env), ptyCheck(), sandboxCheck()]);
  const settings = proxySettings(env);
  const extraCaCerts = env.NODE_EXTRA_CA_CERTS;
  return {
    node: process.version,
    files,
    found,
    checks,
    proxy: { ...settings, ...(extraCaCerts ? { extraCaCerts } : {}) },
    apiKeys: [
      ...new Set([
        ...KNOWN_KEYS.filter((name) => env[name]),
        ...Object.keys(env).filter((name) => /_API_KEY$/.test(name) && isSecretEnvName(name) && env[name]),
      ]),
    ].sort(),
  };
}

async function shellParserCheck() {
  try {
    const { loadShellParser } = await loadPart.shellParser();
    const parsed = (await loadShellParser()).parse('git status && ls');
    return {
      name: 'shell parser',
      ok: parsed.ok,
      detail: parsed.ok ? 'tree-sitter bash loads' : parsed.reason,
    };
  } catch (error) {
    return {
      name: 'shell parser',
      ok: false,
      detail: `${(error as Error).message}: every shell command needs approval`,
    };
  }
}

async function ripgrepCheck(env: NodeJS.ProcessEnv) {
  let path = 'rg';
  try {
    path = (await import('@vscode/ripgrep')).rgPath;
  } catch {
    // The system's, if any.
  }
  const version = await firstLine(path, ['--version'], env);
  return version
    ? { name: 'ripgrep', ok: true, detail: `${version} (${path})` }
    : { name: 'ripgrep', ok: false, detail: 'not found: grep falls back to git grep or a slower scan' };
}

async function ptyCheck() {
  try {
    const pty = await import('@lydell/node-pty');
    const term = pty.spawn(process.platform === 'win32' ? 'cmd.exe' : 'sh', [], { cols: 20, rows: 5 });
    term.kill();
    return { name: 'pty', ok: true, detail: 'node-pty starts a terminal' };
  } catch (error) {
    return { name: 'pty', ok: false, detail: `${(error as Error).message}: commands run without a terminal` };
  }
}

async function sandboxCheck() {
  if (process.platform !== 'linux')
    return { name: 'sandbox', ok: true, detail: `${process.platform}: see docs/security.md` };
  const status = await probeBwrap('bwrap');
  return status.ok
    ? { name: 'sandbox', ok: true, detail: 'bwrap works' }
    : { name: 'sandbox', ok: false, detail: status.message };
}

function firstLine(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? out.split('\n')[0] : undefined));
  });
}
