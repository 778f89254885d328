import { join } from 'node:path';
import { ChatCheckpoints, sessionsDir } from '@kodo/core/engine';
import type { CommandContext, SlashCommand } from './types';

/**
 * Slash commands for features of the engine: compression, context files and named save points
 * of the conversation. Each answers in the history; none changes anything without saying so.
 */

export const compressCommand: SlashCommand = {
  name: 'compress',
  aliases: ['summarize', 'compact'],
  description: 'Summarise the conversation to free context',
  async run({ session, addItem }) {
    addItem({ kind: 'info', tone: 'info', text: 'Compressing chat history…' });
    const result = await session.compress(new AbortController().signal);
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
};

export const memoryCommand: SlashCommand = {
  name: 'memory',
  description: 'Show, list, add to or reload the context files (KODO.md, AGENTS.md, GEMINI.md)',
  subcommands: [
    { name: 'show', description: 'Show the loaded context' },
    { name: 'list', description: 'List the context files in use' },
    { name: 'add', description: 'Remember a fact in ~/.kodo/KODO.md' },
    { name: 'refresh', description: 'Reload the context files' },
  ],
  whileBusy: true,
  async run(context) {
    const { session, addItem } = context;
    const memory = session.memory;
    const [sub = 'show', ...rest] = context.args.split(/\s+/).filter(Boolean);
    if (!memory) {
      addItem({ kind: 'info', tone: 'warning', text: 'No context files are loaded in this session.' });
      return;
    }
    switch (sub) {
      case 'show': {
        const shown = memory.show();
        addItem({
          kind: 'info',
          tone: 'info',
          text: shown || 'No context files found (KODO.md, AGENTS.md, GEMINI.md).',
        });
        return;
      }
      case 'list': {
        const paths = memory.paths();
        addItem({
          kind: 'info',
          tone: 'info',
          text: paths.length > 0 ? paths.join('\n') : 'No context files in use.',
        });
        return;
      }
      case 'refresh':
      case 'reload':
        await memory.load();
        addItem({
          kind: 'info',
          tone: 'success',
          text: `Context files reloaded (${memory.paths().length} in use).`,
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
};

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
  if (response.status === 'success') await context.session.memory?.load();
}

export const chatCommand: SlashCommand = {
  name: 'chat',
  aliases: ['resume'],
  description: 'Save, resume, list and delete named save points of the conversation',
  subcommands: [
    { name: 'save', description: 'Save the conversation under a tag' },
    { name: 'resume', description: 'Go back to a saved conversation' },
    { name: 'list', description: 'List saved conversations' },
    { name: 'delete', description: 'Delete a saved conversation' },
  ],
  run(context) {
    const { session, addItem } = context;
    const store = new ChatCheckpoints(join(sessionsDir(context.cwd, context.env), 'checkpoints'));
    const [sub = 'list', ...rest] = context.args.split(/\s+/).filter(Boolean);
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
          stats: session.stats.snapshot(),
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
        session.client.chat.setHistory(checkpoint.history);
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
};
