/**
 * Codex's saved sessions ("rollouts", 0.171), read for `kodo --list-sessions` and `--resume`.
 * Facts of the format:
 *
 * - `<codex home>/sessions/<yyyy>/<mm>/<dd>/rollout-<time>-<id>.jsonl` (`CODEX_HOME` moves the
 *   home, default `~/.codex`), for every project together: the first line, `session_meta`, says
 *   the session's `id`, `timestamp` and `cwd`, and a subagent's `source`.
 * - Each line is `{timestamp, type, payload}`. `response_item` payloads are the Responses API's
 *   items: `message` (roles `developer`, `user`, `assistant`), `reasoning` (summary text and
 *   `encrypted_content`), `function_call`/`function_call_output`, `custom_tool_call`/`…_output`
 *   (apply_patch), `local_shell_call`. `compacted` replaces the history (its
 *   `replacement_history`, or the user messages and its summary); an `event_msg` of type
 *   `thread_rolled_back` drops the last `num_turns` user turns. Other lines (`event_msg`,
 *   `turn_context`, `world_state`, token counts) are the tool's own.
 * - Developer messages and user messages that are only tagged context (`<environment_context>`,
 *   AGENTS.md instructions) are Codex's instructions, not the conversation.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codexHome } from '../../config/paths';
import type { Part } from '../../contracts/messages';
import { DamagedLines, parseJsonLine, readHeadLines, readJsonLines, readStart } from '../jsonl-lines';
import { titleOf } from '../session-files';
import { ConversationBuilder, imageFromUrl, isWrappedContext } from './conversation';
import { headOutcome, listingOf, type SessionHead } from './listing';
import { codexToolCall } from './tool-calls';
import type { ForeignListing, ForeignSessionFormat, ImportedConversation } from './types';

export const codexSessions: ForeignSessionFormat = {
  origin: 'codex',
  list: listCodexSessions,
  read: readCodexSession,
};

type Item = Record<string, unknown> & { type?: string };

const ROLLOUT_FILE = /^rollout-.*\.jsonl$/;
/** Enough of a file's start to hold `"cwd":…` of its meta line (it precedes the long instructions). */
const CWD_PROBE_BYTES = 16 * 1024;

/** Rollout files under `sessions/` (three date levels). */
function rolloutFiles(env: NodeJS.ProcessEnv): string[] {
  const files: string[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (depth === 3) {
        if (ROLLOUT_FILE.test(name)) files.push(join(dir, name));
      } else if (/^\d+$/.test(name)) {
        walk(join(dir, name), depth + 1);
      }
    }
  };
  walk(join(codexHome(env), 'sessions'), 0);
  return files;
}

function listCodexSessions(projectRoot: string, env: NodeJS.ProcessEnv): ForeignListing {
  const root = resolve(projectRoot);
  const files = rolloutFiles(env).filter((file) => mayBeFor(file, root));
  return listingOf('codex', files, (file) => rolloutHead(file, root));
}

/**
 * A quick look at the first bytes: false when the meta line names another `cwd`, so that the
 * list does not parse every project's sessions. Anything unexpected is looked at properly.
 */
function mayBeFor(file: string, root: string): boolean {
  const cwd = /"cwd":\s*("(?:[^"\\]|\\.)*")/.exec(readStart(file, CWD_PROBE_BYTES))?.[1];
  if (!cwd) return true;
  try {
    return resolve(JSON.parse(cwd) as string) === root;
  } catch {
    return true;
  }
}

/** Id, start and first prompt of a session of this project; a reason for a damaged file. */
function rolloutHead(file: string, root: string): SessionHead | string | undefined {
  let meta: { id: string; startTime: string } | undefined;
  let result: SessionHead | string | undefined;
  const lines = readHeadLines(file, (line) => {
    const parsed = parseJsonLine(line) as { type?: string; timestamp?: string; payload?: Item } | undefined;
    if (!meta) {
      const payload = parsed?.payload;
      if (parsed?.type !== 'session_meta' || typeof payload?.id !== 'string') {
        result = 'its first line is not a session_meta record (a damaged file?)';
        return 'stop';
      }
      // Another project's session, or a subagent's thread.
      if (typeof payload.cwd !== 'string' || resolve(payload.cwd) !== root) return 'stop';
      if (typeof payload.source === 'object' && payload.source !== null) return 'stop';
      const start = new Date(String(payload.timestamp ?? parsed.timestamp));
      meta = {
        id: payload.id,
        startTime: Number.isNaN(start.getTime()) ? new Date(0).toISOString() : start.toISOString(),
      };
      return 'more';
    }
    const item = parsed?.type === 'response_item' ? parsed.payload : undefined;
    const prompt = item?.type === 'message' && item.role === 'user' ? promptText(item) : undefined;
    if (prompt === undefined) return 'more';
    result = { ...meta, title: titleOf(prompt) };
    return 'stop';
  });
  return headOutcome(file, lines, result);
}

/** A user message's typed text, or undefined when it is Codex's context. */
function promptText(item: Item): string | undefined {
  const texts = contentOf(item).flatMap((entry) =>
    entry.type === 'input_text' && typeof entry.text === 'string' ? [entry.text] : [],
  );
  const typed = texts
    .filter((text) => !isWrappedContext(text) && !text.startsWith('# AGENTS.md instructions'))
    .join('\n')
    .trim();
  return typed === '' ? undefined : typed;
}

const contentOf = (item: Item): Item[] => (Array.isArray(item.content) ? (item.content as Item[]) : []);

async function readCodexSession(file: string): Promise<ImportedConversation> {
  const damage = new DamagedLines();
  let items: Item[] = [];
  let model: string | undefined;
  for await (const line of readJsonLines(file, damage)) {
    const { type, payload } = (line ?? {}) as { type?: string; payload?: Item };
    if (typeof payload !== 'object' || payload === null) continue;
    if (type === 'response_item') items.push(payload);
    else if (type === 'compacted') items = compacted(items, payload);
    else if (type === 'event_msg' && payload.type === 'thread_rolled_back') {
      items = rolledBack(items, Number(payload.num_turns ?? 0));
    } else if (type === 'turn_context' && typeof payload.model === 'string') model = payload.model;
  }
  const builder = new ConversationBuilder();
  for (const item of items) addItem(builder, item);
  return { history: builder.history, ...(model ? { model } : {}), warnings: damage.warnings(file) };
}

const isPrompt = (item: Item) =>
  item.type === 'message' && item.role === 'user' && promptText(item) !== undefined;

/** After a compaction: its replacement history, or the user's messages and the summary. */
function compacted(items: Item[], payload: Item): Item[] {
  if (Array.isArray(payload.replacement_history)) return payload.replacement_history as Item[];
  const summary = typeof payload.message === 'string' ? payload.message : '';
  return [
    ...items.filter(isPrompt),
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: summary }] },
  ];
}

/** Drops the last `turns` user turns (from their prompts on). */
function rolledBack(items: Item[], turns: number): Item[] {
  if (!(turns > 0)) return items;
  const prompts = items.flatMap((item, index) => (isPrompt(item) ? [index] : []));
  if (prompts.length === 0) return items;
  const cut = turns >= prompts.length ? prompts[0]! : prompts[prompts.length - turns]!;
  return items.slice(0, cut);
}

function addItem(builder: ConversationBuilder, item: Item): void {
  switch (item.type) {
    case 'message':
      if (item.role === 'user') builder.user(userParts(item));
      else if (item.role === 'assistant') builder.model(assistantParts(item));
      return;
    case 'reasoning':
      // The summary is kept as plain thought text; the encrypted reasoning only OpenAI's
      // Responses API could take back, which kodo does not speak, so it is dropped.
      builder.model(reasoningParts(item));
      return;
    case 'function_call': {
      const call = codexToolCall(String(item.name ?? 'unknown_tool'), parseArguments(item.arguments));
      builder.model([{ functionCall: { id: String(item.call_id ?? ''), name: call.name, args: call.args } }]);
      return;
    }
    case 'custom_tool_call':
      // A freeform call: its text becomes `input`, as kodo's own apply_patch takes its patch.
      builder.model([
        {
          functionCall: {
            id: String(item.call_id ?? ''),
            name: String(item.name ?? 'unknown_tool'),
            args: { input: item.input },
          },
        },
      ]);
      return;
    case 'local_shell_call': {
      const action = (item.action ?? {}) as Item;
      const call = codexToolCall('local_shell', action);
      builder.model([
        { functionCall: { id: String(item.call_id ?? item.id ?? ''), name: call.name, args: call.args } },
      ]);
      return;
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const { text, media } = outputContent(item.output);
      builder.result(String(item.call_id ?? ''), text, { isError: false, media });
      return;
    }
    default:
      // Hosted tools (web search) and items of newer versions: not part of what kodo can replay.
      return;
  }
}

function userParts(item: Item): Part[] {
  if (promptText(item) === undefined && !contentOf(item).some((entry) => entry.type === 'input_image'))
    return [];
  return contentOf(item).flatMap((entry): Part[] => {
    if (entry.type === 'input_text' && typeof entry.text === 'string') {
      return isWrappedContext(entry.text) || entry.text.startsWith('# AGENTS.md instructions')
        ? []
        : [{ text: entry.text }];
    }
    if (entry.type === 'input_image' && typeof entry.image_url === 'string')
      return [imageFromUrl(entry.image_url)];
    return [];
  });
}

function assistantParts(item: Item): Part[] {
  return contentOf(item).flatMap((entry): Part[] =>
    entry.type === 'output_text' && typeof entry.text === 'string' && entry.text !== ''
      ? [{ text: entry.text }]
      : [],
  );
}

function reasoningParts(item: Item): Part[] {
  const summary = Array.isArray(item.summary) ? (item.summary as Item[]) : [];
  const texts = [...summary, ...contentOf(item)].flatMap((entry) =>
    typeof entry.text === 'string' && entry.text !== '' ? [entry.text] : [],
  );
  return texts.length > 0 ? [{ text: texts.join('\n\n'), thought: true }] : [];
}

function parseArguments(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string')
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { arguments: value };
  } catch {
    return { arguments: value };
  }
}

/** A call's output: a string, or (newer versions) content items with text and images. */
function outputContent(output: unknown): { text: string; media: Part[] } {
  if (typeof output === 'string') return { text: output, media: [] };
  const items = Array.isArray(output)
    ? (output as Item[])
    : Array.isArray((output as Item)?.content)
      ? ((output as Item).content as Item[])
      : [];
  const texts: string[] = [];
  const media: Part[] = [];
  for (const entry of items) {
    if (typeof entry?.text === 'string') texts.push(entry.text);
    else if (entry?.type === 'input_image' && typeof entry.image_url === 'string')
      media.push(imageFromUrl(entry.image_url));
  }
  return { text: texts.join('\n'), media };
}
