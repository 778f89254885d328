import type { Chat } from '../agent/chat';
import type { AgentLoopDeps } from '../agent/loop';
import type { ProjectMemory } from '../context/memory-files';
import { estimatePartTokens, estimateTextTokens } from '../context/tokens';
import type { Content, FunctionDeclaration } from '../contracts/messages';
import type { ToolRegistry } from '../tools/registry';
import type { SessionOptions } from './session-types';

/** One source of what the next request carries, in estimated tokens. */
export interface ContextSource {
  /** `system prompt`, `tools (built-in)`, `MCP server <name>`, `context files`, `skills`, `history`, `tool outputs`. */
  label: string;
  tokens: number;
}

/** `/context`: where the context window goes, by source, as the next request would carry it. */
export interface ContextBreakdown {
  model: string;
  /** The model's context window (the catalogue's, or a local server's report). */
  window: number;
  sources: ContextSource[];
  /** The sum of the sources (estimated). */
  total: number;
  /** The prompt tokens the provider counted at the last request, when there was one. */
  measured?: number;
}

/** What the breakdown is computed from (`contextMaterial` gathers it from a session's parts). */
export interface ContextMaterial {
  model: string;
  window: number;
  systemInstruction: string;
  /** Global context files, part of the system instruction. */
  memoryBlock: string;
  /** Project context files, part of the first user turn (when the history has one). */
  firstTurnMemoryBlock: string;
  /** The skills section(s), part of the system instruction. */
  skillSections: readonly string[];
  /** Declared tools, each with its MCP server when it comes from one. */
  declarations: readonly { declaration: FunctionDeclaration; serverName?: string }[];
  history: readonly Content[];
  measured?: number;
}

/** The material of a session's next request, read from the parts that build it. */
export function contextMaterial(parts: {
  model: string;
  window: number;
  loopDeps: Pick<AgentLoopDeps, 'tools' | 'systemInstruction'>;
  chat: Pick<Chat, 'lastPromptTokens' | 'getHistory'>;
  tools: ToolRegistry;
  memory: ProjectMemory | undefined;
  options: Pick<SessionOptions, 'systemInstruction' | 'promptSections'>;
}): ContextMaterial {
  const { loopDeps, chat, memory, options } = parts;
  const declarations = loopDeps.tools().map((declaration) => {
    const spec = parts.tools.get(declaration.name) as { serverName?: string } | undefined;
    return { declaration, ...(spec?.serverName ? { serverName: spec.serverName } : {}) };
  });
  const measured = chat.lastPromptTokens;
  return {
    model: parts.model,
    window: parts.window,
    systemInstruction: loopDeps.systemInstruction(),
    memoryBlock: memory?.systemBlock() ?? '',
    firstTurnMemoryBlock: memory?.firstTurnBlock() ?? '',
    // A replaced system prompt carries no skills section.
    skillSections: options.systemInstruction === undefined ? (options.promptSections?.() ?? []) : [],
    declarations,
    history: chat.getHistory(),
    ...(measured !== undefined ? { measured } : {}),
  };
}

/**
 * Splits the estimate by source with the same estimator compression uses (context/tokens.ts).
 * Parts of the system instruction (context files, skills) and of the first turn (project context
 * files) are counted under their own source and taken out of the one that holds them.
 */
export function computeContextBreakdown(material: ContextMaterial): ContextBreakdown {
  const text = (value: string) => Math.floor(estimateTextTokens(value));
  const globalFiles = material.memoryBlock ? text(material.memoryBlock) : 0;
  const skills = material.skillSections.reduce((sum, section) => sum + text(section), 0);
  const system = Math.max(0, text(material.systemInstruction) - globalFiles - skills);

  let builtinTools = 0;
  const servers = new Map<string, number>();
  for (const { declaration, serverName } of material.declarations) {
    const tokens = Math.floor(JSON.stringify(declaration).length / 4);
    if (serverName) servers.set(serverName, (servers.get(serverName) ?? 0) + tokens);
    else builtinTools += tokens;
  }

  let messages = 0;
  let toolOutputs = 0;
  for (const content of material.history) {
    for (const part of content.parts) {
      if (part.functionResponse) toolOutputs += estimatePartTokens(part);
      else messages += estimatePartTokens(part);
    }
  }
  const projectFiles =
    material.history.length > 0 && material.firstTurnMemoryBlock ? text(material.firstTurnMemoryBlock) : 0;
  messages = Math.max(0, Math.floor(messages) - projectFiles);

  const sources: ContextSource[] = [
    { label: 'system prompt', tokens: system },
    { label: 'tools (built-in)', tokens: builtinTools },
    ...[...servers.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, tokens]) => ({ label: `MCP server ${name}`, tokens })),
    { label: 'context files', tokens: globalFiles + projectFiles },
    { label: 'skills', tokens: skills },
    { label: 'history', tokens: messages },
    { label: 'tool outputs', tokens: Math.floor(toolOutputs) },
  ];
  const total = sources.reduce((sum, source) => sum + source.tokens, 0);
  return {
    model: material.model,
    window: material.window,
    sources,
    total,
    ...(material.measured !== undefined ? { measured: material.measured } : {}),
  };
}
