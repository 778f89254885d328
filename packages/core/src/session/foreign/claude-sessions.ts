/**
 * Claude Code's saved sessions (2.1), read for `kodo --list-sessions` and `--resume`. Facts of the
 * format:
 *
 * - `<claude home>/projects/<project path, every character but letters and digits as ->/<session
 *   id>.jsonl` (`CLAUDE_CONFIG_DIR` moves the home; a name past 200 characters is cut and given a
 *   hash suffix). Subagents' logs live in `<session id>/subagents/`; old versions wrote them
 *   beside the sessions as `agent-*.jsonl`.
 * - One JSON record a line. `user` and `assistant` records carry an Anthropic Messages `message`;
 *   an assistant turn is written one content block a record. Records form a tree through
 *   `uuid`/`parentUuid` (a rewind starts a branch); the conversation is the chain that ends at
 *   the newest message. A compaction starts a new root whose first message is the summary.
 * - Other records are the tool's own: `attachment` (system reminders, prompt snapshots),
 *   `system`, queue operations, request shapes and blobs, costs, titles. `isMeta` user records and
 *   slash-command wrappers are not prompts; `isSidechain` records belong to subagents.
 * - Thinking blocks carry Anthropic's signature; `redacted_thinking` carries encrypted data.
 */
import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { claudeHome } from '../../config/paths';
import type { Part } from '../../contracts/messages';
import {
  ANTHROPIC_REDACTED_PREFIX,
  ANTHROPIC_SIGNATURE_PREFIX,
} from '../../llm/providers/anthropic-signatures';
import { DamagedLines, parseJsonLine, readHeadLines, readJsonLines } from '../jsonl-lines';
import { titleOf } from '../session-files';
import { ConversationBuilder, inlineImage, isWrappedContext } from './conversation';
import { filesIn, headOutcome, listingOf, type SessionHead } from './listing';
import { claudeToolCall } from './tool-calls';
import type { ForeignListing, ForeignSessionFormat, ImportedConversation } from './types';

export const claudeSessions: ForeignSessionFormat = {
  origin: 'claude',
  list: listClaudeSessions,
  read: readClaudeSession,
};

const NAME_LIMIT = 200;

/** The folder name Claude Code gives a project (see the header). */
export function claudeProjectDirName(projectRoot: string): string {
  return resolve(projectRoot).replace(/[^a-zA-Z0-9]/g, '-');
}

/** The project's folders under `projects/` (a long name's hash suffix is matched by its prefix). */
function projectDirs(projectRoot: string, env: NodeJS.ProcessEnv): string[] {
  const projects = join(claudeHome(env), 'projects');
  const name = claudeProjectDirName(projectRoot);
  if (name.length <= NAME_LIMIT) return [join(projects, name)];
  const prefix = `${name.slice(0, NAME_LIMIT)}-`;
  try {
    return readdirSync(projects)
      .filter((entry) => entry.startsWith(prefix))
      .map((entry) => join(projects, entry));
  } catch {
    return [];
  }
}

interface ClaudeRecord {
  type?: string;
  uuid?: string;
  parentUuid?: string | null;
  isSidechain?: boolean;
  isMeta?: boolean;
  isCompactSummary?: boolean;
  sessionId?: string;
  timestamp?: string;
  message?: { role?: string; model?: string; content?: unknown };
}

type Block = Record<string, unknown> & { type?: string };

const isRecord = (value: unknown): value is ClaudeRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function listClaudeSessions(projectRoot: string, env: NodeJS.ProcessEnv): ForeignListing {
  const files = filesIn(
    projectDirs(projectRoot, env),
    (name) => name.endsWith('.jsonl') && !name.startsWith('agent-'),
  );
  return listingOf('claude', files, sessionHead);
}

/** Id, start and first prompt; a reason for a damaged file; undefined for one without a prompt. */
function sessionHead(file: string): SessionHead | string | undefined {
  let startTime: string | undefined;
  let result: SessionHead | string | undefined;
  let seen = 0;
  const lines = readHeadLines(file, (line) => {
    seen += 1;
    const record = parseJsonLine(line);
    if (!isRecord(record)) {
      if (seen === 1) {
        result = 'its first line is not JSON (a damaged file?)';
        return 'stop';
      }
      return 'more';
    }
    if (!startTime && typeof record.timestamp === 'string') startTime = record.timestamp;
    const prompt = promptOf(record);
    if (prompt === undefined) return 'more';
    const id = typeof record.sessionId === 'string' ? record.sessionId : basename(file, '.jsonl');
    const start = new Date(startTime ?? record.timestamp ?? Number.NaN);
    result = {
      id,
      startTime: Number.isNaN(start.getTime()) ? new Date(0).toISOString() : start.toISOString(),
      title: titleOf(prompt),
    };
    return 'stop';
  });
  return headOutcome(file, lines, result);
}

/** The text the person typed, when the record is a prompt of the main conversation. */
function promptOf(record: ClaudeRecord): string | undefined {
  if (record.type !== 'user' || record.isMeta || record.isSidechain || record.isCompactSummary)
    return undefined;
  const content = record.message?.content;
  const texts =
    typeof content === 'string'
      ? [content]
      : Array.isArray(content)
        ? (content as Block[]).flatMap((block) =>
            block?.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
          )
        : [];
  const typed = texts
    .filter((text) => !isWrappedContext(text))
    .join('\n')
    .trim();
  return typed === '' ? undefined : typed;
}

async function readClaudeSession(file: string): Promise<ImportedConversation> {
  const damage = new DamagedLines();
  const byId = new Map<string, ClaudeRecord>();
  let leaf: ClaudeRecord | undefined;
  for await (const value of readJsonLines(file, damage)) {
    if (!isRecord(value) || typeof value.uuid !== 'string') continue;
    byId.set(value.uuid, value);
    if ((value.type === 'user' || value.type === 'assistant') && !value.isSidechain && value.message)
      leaf = value;
  }
  const warnings = damage.warnings(file);
  // The conversation is the chain from the newest message back to its root.
  const chain: ClaudeRecord[] = [];
  const seen = new Set<string>();
  for (let record = leaf; record?.uuid && !seen.has(record.uuid); ) {
    seen.add(record.uuid);
    chain.push(record);
    const parent = record.parentUuid;
    if (typeof parent !== 'string') break;
    record = byId.get(parent);
    if (!record) {
      warnings.push(
        `The start of the conversation in ${basename(file)} is missing (damaged lines); it was imported from where it can be followed.`,
      );
    }
  }
  chain.reverse();
  const builder = new ConversationBuilder();
  let model: string | undefined;
  for (const record of chain) {
    if (record.isSidechain || record.isMeta) continue;
    const content = record.message?.content;
    if (record.type === 'assistant') {
      if (record.message?.model && record.message.model !== '<synthetic>') model = record.message.model;
      builder.model(assistantParts(content));
    } else if (record.type === 'user') {
      addUserContent(builder, content);
    }
  }
  return { history: builder.history, ...(model ? { model } : {}), warnings };
}

function assistantParts(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (!Array.isArray(content)) return [];
  return (content as Block[]).flatMap((block): Part[] => {
    switch (block?.type) {
      case 'text':
        return typeof block.text === 'string' && block.text !== '' ? [{ text: block.text }] : [];
      case 'thinking':
        // Signed: Anthropic models take it back as it was; kodo leaves it out for other models.
        return [
          {
            text: typeof block.thinking === 'string' ? block.thinking : '',
            thought: true,
            ...(typeof block.signature === 'string' && block.signature !== ''
              ? { thoughtSignature: `${ANTHROPIC_SIGNATURE_PREFIX}${block.signature}` }
              : {}),
          },
        ];
      case 'redacted_thinking':
        return typeof block.data === 'string'
          ? [{ text: '', thought: true, thoughtSignature: `${ANTHROPIC_REDACTED_PREFIX}${block.data}` }]
          : [];
      case 'tool_use': {
        const input =
          typeof block.input === 'object' && block.input !== null
            ? (block.input as Record<string, unknown>)
            : {};
        const call = claudeToolCall(String(block.name ?? 'unknown_tool'), input);
        return [{ functionCall: { id: String(block.id ?? ''), name: call.name, args: call.args } }];
      }
      default:
        // Server-side tools (web search results) and unknown blocks: the answer's text tells the rest.
        return [];
    }
  });
}

function addUserContent(builder: ConversationBuilder, content: unknown): void {
  if (typeof content === 'string') {
    if (!isWrappedContext(content) && content.trim() !== '') builder.user([{ text: content }]);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content as Block[]) {
    if (block?.type === 'tool_result') {
      const { text, media } = resultContent(block.content);
      builder.result(String(block.tool_use_id ?? ''), text, { isError: block.is_error === true, media });
    } else if (block?.type === 'text' && typeof block.text === 'string') {
      if (!isWrappedContext(block.text) && block.text.trim() !== '') builder.user([{ text: block.text }]);
    } else if (block?.type === 'image') {
      const image = imagePart(block);
      if (image) builder.user([image]);
    } else if (block?.type === 'document') {
      builder.user([{ text: '[A document was attached here; it was not imported.]' }]);
    }
  }
}

/** A tool result's text (its text blocks joined) and its images. */
function resultContent(content: unknown): { text: string; media: Part[] } {
  if (typeof content === 'string') return { text: content, media: [] };
  if (!Array.isArray(content)) return { text: '', media: [] };
  const texts: string[] = [];
  const media: Part[] = [];
  for (const block of content as Block[]) {
    if (block?.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block?.type === 'image') {
      const image = imagePart(block);
      if (image) media.push(image);
    }
  }
  return { text: texts.join('\n'), media };
}

function imagePart(block: Block): Part | undefined {
  const source = block.source as { type?: string; media_type?: string; data?: string } | undefined;
  if (source?.type === 'base64' && typeof source.data === 'string' && typeof source.media_type === 'string') {
    return inlineImage(source.media_type, source.data);
  }
  return undefined;
}
