import { join } from 'node:path';
import { ChatCheckpoints, kodoHome, MemoryInbox, sessionsDir } from '@kodo/core/engine';
import { browseSessions, isSessionIdentifier } from './session-browser';
import { terminalBuiltin } from './terminal-builtin';
import type { CommandContext, SlashCommand } from './types';

/**
 * Slash commands for features of the engine: compression, context files and named save points
 * of the conversation. Each answers in the history; none changes anything without saying so.
 */

export const compressCommand: SlashCommand = terminalBuiltin('compress', {
  async run({ session, args, addItem }) {
    addItem({ kind: 'info', tone: 'info', text: 'Compressing chat history…' });
    let result: Awaited<ReturnType<typeof session.compress>>;
    try {
      result = await session.compress(new AbortController().signal, args ? { instructions: args } : {});
    } catch (error) {
      addItem({
        kind: 'info',
        tone: 'error',
        text: `Chat history compression failed: ${(error as Error).message}`,
      });
      return;
    }
    const text =
      result.status === 'compressed'
        ? `Chat history compressed from ${result.originalTokens} to ${result.newTokens} tokens.`
        : result.status === 'noop'
          ? 'Nothing to compress.'
          : result.status === 'failed_empty_summary'
            ? 'Chat history compression failed: the model returned an empty summary.'
            : result.status === 'failed_inflated'
              ? 'Compression was not beneficial for this history size.'
              : `Old tool outputs were shortened (${result.originalTokens} → ${result.newTokens} tokens).`;
    addItem({ kind: 'info', tone: result.status === 'compressed' ? 'success' : 'info', text });
  },
});

export const memoryCommand: SlashCommand = terminalBuiltin('memory', {
  subcommands: [
    { name: 'show', description: 'Show the loaded context' },
    { name: 'list', description: 'List the context files in use' },
    { name: 'add', description: 'Remember a fact in ~/.kodo/KODO.md' },
    { name: 'refresh', description: 'Reload the context files' },
    { name: 'inbox', description: 'Facts proposed at the end of sessions, waiting for you' },
    { name: 'accept', description: 'Save a proposed fact (accept N, or all)' },
    { name: 'drop', description: 'Drop a proposed fact (drop N, or all)' },
  ],
  whileBusy: true,
  async run(context) {
    const { session, addItem } = context;
    const memory = session.contextFiles();
    const [sub = 'show', ...rest] = context.args.split(/\s+/).filter(Boolean);
    if (sub === 'inbox' || sub === 'accept' || sub === 'drop') {
      await memoryInbox(context, sub, rest[0]);
      return;
    }
    // Bare `/memory` also shows what auto-memory proposed, when something waits.
    if (context.args.trim() === '' && new MemoryInbox(kodoHome(context.env), context.cwd).list().length > 0) {
      if (memory) addItem({ kind: 'info', tone: 'info', text: memory.text || 'No context files found.' });
      await memoryInbox(context, 'inbox');
      return;
    }
    if (!memory) {
      addItem({ kind: 'info', tone: 'warning', text: 'No context files are loaded in this session.' });
      return;
    }
    switch (sub) {
      case 'show': {
        const shown = memory.text;
        addItem({
          kind: 'info',
          tone: 'info',
          text: shown || 'No context files found (KODO.md, AGENTS.md, GEMINI.md).',
        });
        return;
      }
      case 'list': {
        const paths = memory.paths;
        addItem({
          kind: 'info',
          tone: 'info',
          text: paths.length > 0 ? paths.join('\n') : 'No context files in use.',
        });
        return;
      }
      case 'refresh':
      case 'reload':
        addItem({
          kind: 'info',
          tone: 'success',
          text: `Context files reloaded (${await session.reloadContextFiles()} in use).`,
        });
        return;
      case 'add':
        await addFact(context, rest.join(' '));
        return;
      default:
        addItem({
          kind: 'info',
          tone: 'warning',
          text: `Unknown /memory subcommand "${sub}": use show, list, add or refresh.`,
        });
    }
  },
});

/** `/memory add <fact>` goes through the `save_memory` tool, so approval and the diff apply. */
async function addFact(context: CommandContext, fact: string): Promise<void> {
  if (fact.trim() === '') {
    context.addItem({ kind: 'info', tone: 'warning', text: 'Usage: /memory add <fact to remember>' });
    return;
  }
  const run = context.session.runUserToolCall('save_memory', { fact }, new AbortController().signal);
  let next = await run.next();
  while (!next.done) next = await run.next();
  const response = next.value.response;
  context.addItem({
    kind: 'info',
    tone: response.status === 'success' ? 'success' : 'error',
    text: response.status === 'success' ? `Remembered: ${fact}` : `Could not save: ${response.resultDisplay}`,
  });
  if (response.status === 'success') await context.session.reloadContextFiles();
}

/** `/memory inbox|accept|drop`: the facts auto-memory proposed; only `accept` writes (via save_memory). */
async function memoryInbox(context: CommandContext, sub: 'inbox' | 'accept' | 'drop', which?: string) {
  const inbox = new MemoryInbox(kodoHome(context.env), context.cwd);
  const waiting = inbox.list();
  if (sub === 'inbox') {
    context.addItem({
      kind: 'info',
      tone: 'info',
      text:
        waiting.length === 0
          ? 'The memory inbox is empty.'
          : [
              `Proposed memories (${waiting.length}): /memory accept N saves one, /memory drop N drops it (or all).`,
              ...waiting.map((entry, index) => `${index + 1}. ${entry.fact}`),
            ].join('\n'),
    });
    return;
  }
  const positions =
    which === 'all'
      ? waiting.map((_, index) => index + 1)
      : which && /^\d+$/.test(which) && Number(which) >= 1 && Number(which) <= waiting.length
        ? [Number(which)]
        : undefined;
  if (!positions) {
    context.addItem({
      kind: 'info',
      tone: 'warning',
      text: `Usage: /memory ${sub} N (1–${waiting.length}) or /memory ${sub} all`,
    });
    return;
  }
  // From the last, so the positions of the ones still to take do not move.
  for (const position of [...positions].reverse()) {
    const entry = inbox.take(position);
    if (!entry) continue;
    if (sub === 'accept') await addFact(context, entry.fact);
    else context.addItem({ kind: 'info', tone: 'info', text: `Dropped: ${entry.fact}` });
  }
}

const CHAT_SUBCOMMANDS = new Set(['save', 'resume', 'load', 'list', 'delete']);

export const chatCommand: SlashCommand = terminalBuiltin('chat', {
  subcommands: [
    { name: 'save', description: 'Save the conversation under a tag' },
    { name: 'resume', description: 'Go back to a saved conversation' },
    { name: 'list', description: 'List saved conversations' },
    { name: 'delete', description: 'Delete a saved conversation' },
  ],
  async run(context) {
    const { session, addItem } = context;
    const store = new ChatCheckpoints(join(sessionsDir(context.cwd, context.env), 'checkpoints'));
    const [sub, ...rest] = context.args.split(/\s+/).filter(Boolean);
    // As in Gemini CLI, the command alone is the session browser; a session's number or id resumes it.
    if (sub === undefined) return browseSessions(context);
    if (!CHAT_SUBCOMMANDS.has(sub) && rest.length === 0 && isSessionIdentifier(sub)) {
      if (!context.resumeSession) {
        addItem({ kind: 'info', tone: 'warning', text: 'Resuming another session is not available here.' });
        return;
      }
      await context.resumeSession(sub);
      return;
    }
    const tag = rest.join(' ');
    const needTag = () => {
      if (tag) return false;
      addItem({ kind: 'info', tone: 'warning', text: `Usage: /chat ${sub} <tag>` });
      return true;
    };
    switch (sub) {
      case 'list': {
        const saved = store.list();
        addItem({
          kind: 'info',
          tone: 'info',
          text:
            saved.length === 0
              ? 'No saved conversations. Save one with /chat save <tag>.'
              : `Saved conversations:\n${saved.map((item) => `  ${item.tag}  (${item.savedAt.toLocaleString()})`).join('\n')}`,
        });
        return;
      }
      case 'save':
        if (needTag()) return;
        store.save(tag, {
          sessionId: session.id,
          model: session.model,
          history: session.history(),
          stats: session.statsSnapshot(),
          todos: session.todos(),
        });
        addItem({ kind: 'info', tone: 'success', text: `Conversation saved as "${tag}".` });
        return;
      case 'resume':
      case 'load': {
        if (needTag()) return;
        const checkpoint = store.load(tag);
        if (!checkpoint) {
          addItem({ kind: 'info', tone: 'warning', text: `No saved conversation "${tag}". See /chat list.` });
          return;
        }
        session.replaceHistory(checkpoint.history, { reason: 'restore' });
        addItem({
          kind: 'info',
          tone: 'success',
          text: `Resumed "${tag}" (${checkpoint.history.length} turns). The model now continues from there.`,
        });
        return;
      }
      case 'delete': {
        if (needTag()) return;
        const existed = store.exists(tag);
        store.delete(tag);
        addItem({
          kind: 'info',
          tone: existed ? 'success' : 'warning',
          text: existed ? `Deleted "${tag}".` : `No saved conversation "${tag}".`,
        });
        return;
      }
      default:
        addItem({
          kind: 'info',
          tone: 'warning',
          text: `Unknown /chat subcommand "${sub}": use save, resume, list or delete.`,
        });
    }
  },
});

export const restoreCommand: SlashCommand = terminalBuiltin('restore', {
  run: async ({ session, args, addItem }) => {
    if (!session.checkpointing) {
      addItem({
        kind: 'info',
        tone: 'warning',
        text: 'Checkpointing is off. Turn it on with "general": {"checkpointing": {"enabled": true}} in settings.',
      });
      return;
    }
    const [id, ...flags] = args.split(/\s+/).filter(Boolean);
    if (!id) {
      const list = session.listCheckpoints();
      addItem({
        kind: 'info',
        tone: 'info',
        text:
          list.length === 0
            ? 'No checkpoints yet: one is taken before each file change.'
            : `Checkpoints (newest last); restore one with /restore <id> [--conversation]:\n${list
                .map((item) => `  ${item.id}  ${item.label}`)
                .join('\n')}`,
      });
      return;
    }
    const conversation = flags.includes('--conversation') || flags.includes('--both');
    const result = await session.restoreCheckpoint(id, {
      files: !flags.includes('--conversation-only'),
      conversation,
    });
    const changed = result.filesChanged?.length ?? 0;
    addItem({
      kind: 'info',
      tone: 'success',
      text: [
        `Restored ${id}: ${changed} file(s) changed${result.conversationRestored ? ', conversation rewound' : ''}.`,
        ...result.notes,
      ].join('\n'),
    });
  },
});

export const rewindCommand: SlashCommand = terminalBuiltin('rewind', {
  run: async ({ session, args, addItem }) => {
    if (!session.checkpointing) {
      addItem({
        kind: 'info',
        tone: 'warning',
        text: 'Rewinding needs checkpointing (general.checkpointing.enabled).',
      });
      return;
    }
    const words = args.split(/\s+/).filter(Boolean);
    const count = Number(words.find((word) => /^\d+$/.test(word)) ?? '1');
    const mode = (words.find((word) => word === 'code' || word === 'conversation' || word === 'both') ??
      'both') as 'code' | 'conversation' | 'both';
    if (session.rewindablePrompts().length === 0) {
      addItem({ kind: 'info', tone: 'warning', text: 'Nothing to rewind yet.' });
      return;
    }
    const result = await session.rewind(count, mode);
    addItem({
      kind: 'info',
      tone: 'success',
      text: [
        `Rewound to before prompt ${result.prompt.index} ("${result.prompt.text}"): ${result.filesChanged?.length ?? 0} file(s) changed${result.conversationRestored ? ', conversation rewound' : ''}.`,
        ...result.notes,
      ].join('\n'),
    });
  },
});
