/**
 * The input pipeline: one function that turns what a person typed (a line, or an editor's
 * content blocks already made parts) into what the session does with it, with one meaning in
 * every front end (docs/architecture.md, "Input"):
 *
 *   `!command`          → shell: the front end runs it as the person's call; output joins the context
 *   `/builtin args`     → session_command: the front end runs it (or says it does not run there)
 *   `/custom args`      → the command file expanded (its `!{…}`/`@{…}` steps as tool calls)
 *   `/skill args`       → the skill activated, its instructions and the request as the prompt
 *   `/mcp-prompt args`  → the server's prompt as the prompt
 *   anything else       → the text, `@server:uri` resources, `@path` files and images attached,
 *                         an `@agent` mention routed to that subagent
 *
 * Custom command expansion is commands/expand.ts with its security checks; this file only
 * decides which step a line takes. Nothing heavy loads for a plain prompt.
 */

import { routeAgentMention } from '../agent/agent-mention';
import type { CustomCommand } from '../commands/definition';
import type { Part } from '../contracts/messages';
import { acceptsImages } from '../llm/models';
import { type McpPromptCommand, parsePromptArguments, promptHelp, promptText } from '../mcp/prompts';
import { loadExtensionsModule, loadInputFiles, loadPart } from '../on-demand';
import type { SkillDefinition } from '../skills/definition';

import { activateSkill, skillActivationParts } from './skills';
import { findSlashTarget, listCommands, parseSlash } from './slash';
import { commandTemplateServices } from './template-services';
import type { FrontEnd, LineInput, ResolvedInput, ResolveOptions } from './types';

const IMAGE_NAME = /\.(?:png|jpe?g|webp|gif)\b/i;

export async function resolveInput(input: LineInput, options: ResolveOptions): Promise<ResolvedInput> {
  const { text } = input;
  if (text.startsWith('!') && text.trim().length > 1) return { kind: 'shell', command: text.slice(1).trim() };
  const slash = parseSlash(text);
  if (slash) {
    const target = findSlashTarget(slash.name, options.sources, options);
    if (!target) return unknownCommand(slash.name, options);
    const display = text.trim();
    switch (target.kind) {
      case 'builtin':
        if (!target.runsHere)
          return {
            kind: 'error',
            message: notHere(target.command.name, target.command.frontEnds, options.frontEnd),
          };
        return { kind: 'session_command', name: target.command.name, args: slash.args };
      case 'extra':
        return { kind: 'session_command', name: target.name, args: slash.args };
      case 'custom_command':
        return customCommandPrompt(target.command, slash.args, display, input, options);
      case 'skill':
        return skillPrompt(target.skill, slash.args, display, input, options);
      case 'mcp_prompt':
        return mcpPrompt(target.prompt, slash.args, display, input, options);
    }
  }
  return typedPrompt(input, options);
}

/** A prompt as typed: resources, files and images attached, an `@agent` mention routed. */
async function typedPrompt(input: LineInput, options: ResolveOptions): Promise<ResolvedInput> {
  const { session, sources, signal } = options;
  let text = input.text;
  const attached: string[] = [];
  const skipped: string[] = [];
  const mcp = sources.mcp;
  const resourceServers = mcp ? new Set(mcp.resourceServers().map((server) => server.name)) : undefined;
  if (mcp && resourceServers && resourceServers.size > 0 && text.includes('@')) {
    const { expandResourceReferences } = await loadPart.mcpResources();
    const expanded = await expandResourceReferences(text, mcp, signal);
    text = expanded.text;
    skipped.push(...expanded.skipped);
  }
  let images: Part[] = [];
  const agentNames = session.listAgents().map((agent) => agent.name);
  const isAgent = (reference: string) =>
    agentNames.some((name) => name.toLowerCase() === reference.toLowerCase());
  // `@path`, or the path of an image pasted into the prompt.
  if (text.includes('@') || IMAGE_NAME.test(text)) {
    // Loaded for a prompt that may reference files (it reads them: fs/promises is not on the way
    // to a plain prompt's first request).
    const { expandAtReferences, ignoredPathCheck } = await loadInputFiles();
    const expanded = await expandAtReferences(text, {
      workspace: session.workspace,
      isIgnored: ignoredPathCheck(session.workspace, session.fileFiltering),
      listFiles: sources.listFiles ?? (() => listWorkspaceFiles(session.workspace.cwd)),
      images: { model: session.model, accepted: acceptsImages(session.model) },
      // `@server:uri` was the MCP step's, `@agent` is the routing step's: neither is a file.
      skip: (reference) =>
        isAgent(reference) ||
        (resourceServers !== undefined && isResourceReference(reference, resourceServers)),
    });
    text = expanded.text;
    attached.push(...expanded.attached);
    skipped.push(...expanded.skipped);
    images = expanded.images;
  }
  const routed = routeAgentMention(text, agentNames);
  const extra = [...images, ...(input.parts ?? [])];
  return {
    kind: 'prompt',
    prompt: extra.length > 0 ? [{ text: routed.prompt }, ...extra] : routed.prompt,
    display: input.text,
    source: 'typed',
    ...(routed.agent ? { agent: routed.agent } : {}),
    attached,
    skipped,
  };
}

function isResourceReference(reference: string, servers: ReadonlySet<string>): boolean {
  const colon = reference.indexOf(':');
  return colon > 0 && servers.has(reference.slice(0, colon));
}

async function listWorkspaceFiles(cwd: string): Promise<string[]> {
  const { FileIndex } = await loadInputFiles();
  return new FileIndex(cwd).entries();
}

/** `/<custom> args`: the command file's template, expanded by commands/expand.ts. */
async function customCommandPrompt(
  command: CustomCommand,
  args: string,
  display: string,
  input: LineInput,
  options: ResolveOptions,
): Promise<ResolvedInput> {
  const module = await loadExtensionsModule();
  const services = commandTemplateServices(options.session, {
    onEvent: options.onEvent ?? (() => undefined),
    commandName: command.name,
  });
  try {
    const expanded = await module.expandCommand(command, args, services, options.signal);
    return prompt([...expanded.parts, ...(input.parts ?? [])], display, 'custom_command');
  } catch (error) {
    if (error instanceof module.CommandExpansionError) {
      return { kind: 'error', message: `/${command.name}: ${error.message}` };
    }
    throw error;
  }
}

/** `/<skill> args`: activated as the model's own `activate_skill` call would be, then the request. */
async function skillPrompt(
  skill: SkillDefinition,
  args: string,
  display: string,
  input: LineInput,
  options: ResolveOptions,
): Promise<ResolvedInput> {
  const activated = await activateSkill(options.session, skill.name, options.signal, options.onEvent);
  if (!activated.ok) return { kind: 'error', message: activated.message };
  return prompt(
    [...skillActivationParts(skill.name, activated.instructions, args), ...(input.parts ?? [])],
    display,
    'skill',
  );
}

/** `/<prompt> args` of an MCP server: its messages as the prompt; `help` lists its arguments. */
async function mcpPrompt(
  command: McpPromptCommand,
  args: string,
  display: string,
  input: LineInput,
  options: ResolveOptions,
): Promise<ResolvedInput> {
  if (args === 'help') return { kind: 'error', message: promptHelp(command) };
  const parsed = parsePromptArguments(args, command.prompt.arguments);
  if (!parsed.ok) return { kind: 'error', message: `/${command.name}: ${parsed.message}` };
  const messages = await options.sources.mcp!.getPrompt(
    command.server,
    command.prompt.name,
    parsed.values,
    options.signal,
  );
  const text = promptText(messages);
  return prompt(input.parts?.length ? [{ text }, ...input.parts] : text, display, 'mcp_prompt');
}

function prompt(
  parts: string | Part[],
  display: string,
  source: 'custom_command' | 'skill' | 'mcp_prompt',
): ResolvedInput {
  return { kind: 'prompt', prompt: parts, display, source, attached: [], skipped: [] };
}

function unknownCommand(name: string, options: ResolveOptions): ResolvedInput {
  const known = listCommands(options.sources, options.frontEnd).filter((entry) => entry.kind !== 'builtin');
  const list = known.map(
    (entry) => `  /${entry.name}  ${entry.kind === 'mcp_prompt' ? '(MCP prompt) ' : ''}${entry.description}`,
  );
  return {
    kind: 'error',
    unknownCommand: name,
    message:
      list.length === 0
        ? `Unknown command: /${name}. There are no custom commands (see docs/extending.md).`
        : `Unknown command: /${name}. Known commands:\n${list.join('\n')}`,
  };
}

const FRONT_END_NAMES: Record<FrontEnd, string> = {
  terminal: 'the terminal UI',
  headless: 'headless runs',
  acp: 'editors (ACP)',
  mcp_serve: 'kodo mcp serve',
  sdk: 'the SDK',
};

function notHere(name: string, where: readonly FrontEnd[], here: FrontEnd): string {
  return `/${name} is a session command of ${where.map((frontEnd) => FRONT_END_NAMES[frontEnd]).join(' and ')}; it does not run in ${FRONT_END_NAMES[here]}.`;
}
