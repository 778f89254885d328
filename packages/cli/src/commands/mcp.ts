import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  gateMcpServers,
  jsonErrorDetail,
  kodoHome,
  type LoadedSettings,
  loadMcpModule,
  loadRuntimeExtensibility,
  loadSettings,
  type McpServerHold,
  type McpServerSettings,
  SettingsError,
  sanitizeEnv,
  ToolRegistry,
} from '@kodo/core/engine';
// The ESM build: the package's default entry is a UMD module bundlers cannot follow. A static
// import: core reads settings with the same module, so it is loaded already.
import { applyEdits, modify, parse } from 'jsonc-parser/lib/esm/main.js';
import { onDemand } from '../on-demand';
import { ExitCode } from '../shared/exit-codes';
import { MCP_HELP } from '../shared/help';
import { formatServer } from '../shared/mcp-status';
import { keepingTrustFingerprint, settingsForFolder } from '../shared/trust-gate';

/**
 * `kodo mcp add|remove|list`: the MCP servers of the settings (`/mcp` is in mcp-status.ts). Adding and removing
 * edit `mcpServers` in the user or project settings file (the one kodo reads for that scope),
 * keeping the rest of the file, comments included. Listing connects to each server a session in
 * the folder has (the settings' and the enabled extensions') to show whether it works and what it
 * offers.
 */

export interface McpCommandContext {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

type Scope = 'user' | 'project';

export async function runMcpCommand(context: McpCommandContext): Promise<number> {
  const [action, ...rest] = context.args;
  if (action === 'serve') {
    // The MCP server side loads only here.
    const { runMcpServe } = await onDemand.mcpServe();
    return runMcpServe({ args: rest, cwd: context.cwd, env: context.env, stderr: context.stderr });
  }
  if (action === 'auth') {
    const { runMcpAuth } = await onDemand.mcpAuth();
    return runMcpAuth({ ...context, words: rest });
  }
  try {
    if (action === 'list' || action === undefined) {
      context.stdout.write(`${await listServers(context)}\n`);
      return ExitCode.ok;
    }
    if (action === 'add') {
      const parsed = parseAdd(rest);
      if (!parsed.ok) return usageError(context, parsed.message);
      const path = settingsPath(loadSettings({ cwd: context.cwd, env: context.env }), parsed.scope, context);
      // The person's own change: a trusted folder stays trusted (trust-gate.ts).
      const existed = await keepingTrustFingerprint(context.cwd, context.env, () =>
        writeServer(path, parsed.name, parsed.entry),
      );
      context.stdout.write(`${existed ? 'Updated' : 'Added'} MCP server '${parsed.name}' in ${path}.\n`);
      return ExitCode.ok;
    }
    if (action === 'remove') {
      const parsed = parseRemove(rest);
      if (!parsed.ok) return usageError(context, parsed.message);
      const loaded = loadSettings({ cwd: context.cwd, env: context.env });
      const path = settingsPath(loaded, parsed.scope, context);
      const removed = await keepingTrustFingerprint(context.cwd, context.env, () =>
        writeServer(path, parsed.name, undefined),
      );
      if (!removed) {
        const elsewhere = loaded.scopes?.find(
          (scope) => scope.scope !== parsed.scope && scope.settings.mcpServers?.[parsed.name] !== undefined,
        );
        const hint = elsewhere
          ? ` It is in the ${elsewhere.scope} settings: add --scope ${elsewhere.scope}.`
          : '';
        context.stderr.write(`[ERROR] No MCP server '${parsed.name}' in ${path}.${hint}\n`);
        return ExitCode.error;
      }
      context.stdout.write(`Removed MCP server '${parsed.name}' from ${path}.\n`);
      return ExitCode.ok;
    }
    if (action === '--help' || action === '-h' || action === 'help') {
      context.stdout.write(MCP_HELP);
      return ExitCode.ok;
    }
    return usageError(context, `Unknown mcp command: ${action}`);
  } catch (error) {
    if (error instanceof SettingsError) {
      context.stderr.write(`[ERROR] ${error.message}\n`);
      return ExitCode.config;
    }
    context.stderr.write(`[ERROR] ${(error as Error).message}\n`);
    return ExitCode.error;
  }
}

function usageError(context: McpCommandContext, message: string): number {
  context.stderr.write(`[ERROR] ${message.replace(/\.$/, '')} (see kodo mcp --help)\n`);
  return ExitCode.error;
}

type Parsed<T> = ({ ok: true } & T) | { ok: false; message: string };

/** Options come before `<name> <command|url>`; every word after the command is the server's. */
export function parseAdd(words: string[]): Parsed<{ scope: Scope; name: string; entry: McpServerSettings }> {
  let scope: Scope = 'project';
  let transport = 'stdio';
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const extra: McpServerSettings = {};
  const positional: string[] = [];
  let index = 0;
  for (; index < words.length && positional.length < 2; index += 1) {
    const word = words[index]!;
    if (word === '--') continue;
    if (!word.startsWith('-') || positional.length === 2) {
      positional.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const flag = eq > 0 ? word.slice(0, eq) : word;
    const value = () => (eq > 0 ? word.slice(eq + 1) : words[++index]);
    switch (flag) {
      case '-s':
      case '--scope': {
        const given = value();
        if (given !== 'user' && given !== 'project') return { ok: false, message: `Invalid scope: ${given}` };
        scope = given;
        break;
      }
      case '-t':
      case '--transport':
        transport = value() ?? '';
        if (!['stdio', 'http', 'sse'].includes(transport)) {
          return { ok: false, message: `Invalid transport: ${transport} (stdio, http or sse)` };
        }
        break;
      case '-e':
      case '--env': {
        const pair = value() ?? '';
        const at = pair.indexOf('=');
        if (at <= 0) return { ok: false, message: `Invalid --env value: ${pair} (expected KEY=value)` };
        env[pair.slice(0, at)] = pair.slice(at + 1);
        break;
      }
      case '-H':
      case '--header': {
        const header = value() ?? '';
        const at = header.indexOf(':');
        if (at <= 0)
          return { ok: false, message: `Invalid --header value: ${header} (expected "Name: value")` };
        headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
        break;
      }
      case '--timeout': {
        const ms = Number(value());
        if (!Number.isInteger(ms) || ms <= 0) return { ok: false, message: '--timeout takes milliseconds' };
        extra.timeout = ms;
        break;
      }
      case '--trust':
        extra.trust = true;
        break;
      case '--description':
        extra.description = value() ?? '';
        break;
      case '--include-tools':
      case '--exclude-tools': {
        const list = (value() ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
        if (flag === '--include-tools') extra.includeTools = list;
        else extra.excludeTools = list;
        break;
      }
      default:
        return { ok: false, message: `Unknown option: ${flag}` };
    }
  }
  const [name, target] = positional;
  if (!name || !target) return { ok: false, message: 'kodo mcp add needs a name and a command or URL.' };
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    return { ok: false, message: `Invalid server name: ${name} (letters, digits, '_', '-' and '.')` };
  }
  const args = words.slice(index);
  if (args[0] === '--') args.shift();
  if (transport === 'stdio') {
    if (Object.keys(headers).length > 0)
      return { ok: false, message: '--header is for http and sse servers.' };
    return {
      ok: true,
      scope,
      name,
      entry: {
        command: target,
        ...(args.length > 0 ? { args } : {}),
        ...(Object.keys(env).length > 0 ? { env } : {}),
        ...extra,
      },
    };
  }
  if (!/^https?:\/\//.test(target))
    return { ok: false, message: `A ${transport} server needs a URL: ${target}` };
  if (args.length > 0 || Object.keys(env).length > 0) {
    return { ok: false, message: 'Arguments and --env are for stdio servers.' };
  }
  return {
    ok: true,
    scope,
    name,
    entry: {
      url: target,
      type: transport,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...extra,
    },
  };
}

function parseRemove(words: string[]): Parsed<{ scope: Scope; name: string }> {
  let scope: Scope = 'project';
  const names: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (word === '-s' || word === '--scope' || word.startsWith('--scope=')) {
      const given = word.includes('=') ? word.slice(word.indexOf('=') + 1) : words[++index];
      if (given !== 'user' && given !== 'project') return { ok: false, message: `Invalid scope: ${given}` };
      scope = given;
    } else {
      names.push(word);
    }
  }
  if (names.length !== 1) return { ok: false, message: 'kodo mcp remove needs one server name.' };
  return { ok: true, scope, name: names[0]! };
}

/** The file kodo reads for the scope (`.kodo` or `.gemini`), or kodo's own when there is none. */
function settingsPath(loaded: LoadedSettings, scope: Scope, context: McpCommandContext): string {
  const read = loaded.scopes?.find((entry) => entry.scope === scope);
  if (read) return read.path;
  return scope === 'user'
    ? join(kodoHome(context.env), 'settings.json')
    : join(context.cwd, '.kodo', 'settings.json');
}

/**
 * Sets (or with `entry` undefined, removes) `mcpServers.<name>`, keeping the file's formatting
 * and comments. Returns whether the server was in the file before.
 */
async function writeServer(
  path: string,
  name: string,
  entry: McpServerSettings | undefined,
): Promise<boolean> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    if (entry === undefined) return false;
    text = '{}\n';
  }
  const errors: Parameters<typeof parse>[1] = [];
  const parsed = parse(text, errors, { allowTrailingComma: true });
  if ((errors?.length ?? 0) > 0 || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const detail = jsonErrorDetail(text, { jsonc: true }, 'the top level must be an object');
    throw new SettingsError(
      `Invalid settings file ${path}: ${detail}. kodo mcp does not rewrite a file it cannot read.`,
    );
  }
  const servers = (parsed as { mcpServers?: unknown }).mcpServers;
  const existed = servers !== null && typeof servers === 'object' && Object.hasOwn(servers, name);
  if (entry === undefined && !existed) return false;
  const edits = modify(text, ['mcpServers', name], entry, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, applyEdits(text, edits));
  return existed;
}

/** What `kodo mcp list` says of a server that does not start here. */
const HOLD_NOTES: Record<McpServerHold, string> = {
  excluded: 'disabled by mcp.excluded',
  'not-allowed': 'disabled: not in mcp.allowed',
  untrusted: 'not started: this folder is not trusted',
};

/** Every configured server, connected once to see whether it works. */
async function listServers(context: McpCommandContext): Promise<string> {
  const { loaded, trusted } = settingsForFolder(context);
  // The servers a session here has: the settings' and those of the enabled extensions, merged
  // as the runtime merges them (the settings win on a name).
  const extensibility = await loadRuntimeExtensibility({
    settings: loaded.merged,
    ...(loaded.scopes ? { settingsScopes: loaded.scopes } : {}),
    cwd: context.cwd,
    env: context.env,
    trusted,
    commands: false,
  });
  const effective = extensibility?.settings ?? loaded.merged;
  const configured = effective.mcpServers ?? {};
  const names = Object.keys(configured);
  if (names.length === 0) {
    return 'No MCP servers configured. Add one with: kodo mcp add <name> <command> [args...]';
  }
  const mcp = await loadMcpModule();
  const { startable, held } = gateMcpServers({ servers: configured, mcp: effective.mcp, trusted });
  const { servers, problems } = mcp.resolveMcpServers({ servers: startable, env: context.env });
  const manager = new mcp.McpManager({
    servers,
    registry: new ToolRegistry(),
    baseEnv: sanitizeEnv(context.env),
    cwd: context.cwd,
    oauthDir: mcp.mcpOAuthDir(context.env),
  });
  try {
    await manager.waitForDiscovery();
    const statuses = new Map(manager.servers().map((status) => [status.name, status]));
    const lines = ['MCP servers:', ''];
    for (const name of names) {
      const scope =
        loaded.scopes?.filter((entry) => entry.settings.mcpServers?.[name] !== undefined).at(-1)?.scope ??
        extensionOf(extensibility, name);
      const where = `${describeEntry(configured[name] as McpServerSettings)}${scope ? `, ${scope}` : ''}`;
      const status = statuses.get(name);
      const hold = held.get(name);
      const note =
        (hold && HOLD_NOTES[hold]) ?? problems.find((problem) => problem.startsWith(`MCP server '${name}'`));
      lines.push(status ? formatServer(status, where) : `- ${name} (${where}): ${note ?? 'not started'}`);
    }
    return lines.join('\n');
  } finally {
    await manager.dispose();
  }
}

/** `extension <name>` for a server only an extension declares (the first such extension wins). */
function extensionOf(
  extensibility: Awaited<ReturnType<typeof loadRuntimeExtensibility>>,
  server: string,
): string | undefined {
  const owner = extensibility?.loaded.active.find((extension) => server in extension.mcpServers);
  return owner ? `extension ${owner.name}` : undefined;
}

function describeEntry(entry: McpServerSettings): string {
  if (typeof entry?.httpUrl === 'string') return `${entry.httpUrl} (http)`;
  if (typeof entry?.url === 'string') return `${entry.url} (${entry.type ?? 'http, sse fallback'})`;
  const args = Array.isArray(entry?.args) ? ` ${entry.args.join(' ')}` : '';
  return `${entry?.command ?? '?'}${args} (stdio)`;
}
