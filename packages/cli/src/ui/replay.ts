import type { MessageRecord, Part } from '@kodo/core/engine';
import type { CallDescriber } from './turn-accumulator';
import type { NewHistoryItem, ToolCallView } from './types';

/** More than this many resumed messages: only the newest are drawn (the model has them all). */
export const MAX_REPLAYED_MESSAGES = 200;

/**
 * A resumed session's messages as history items, so `kodo --resume` shows the conversation it
 * continues: what the person typed (without the context kodo prepended), the answers, thoughts,
 * and each tool call with how it ended. kodo's own logs and Gemini CLI's are both read.
 */
export function replayItems(messages: readonly MessageRecord[], describe: CallDescriber): NewHistoryItem[] {
  const shown = messages.slice(-MAX_REPLAYED_MESSAGES);
  const items: NewHistoryItem[] = [];
  if (shown.length < messages.length) {
    items.push({
      kind: 'info',
      tone: 'info',
      text: `${messages.length - shown.length} earlier messages of this session are not shown.`,
    });
  }
  // Tool calls wait for the user message that carries their results (kodo's logs).
  let pending: PendingCall[] = [];
  const flushPending = () => {
    for (const { call } of pending) items.push({ kind: 'tool', call });
    pending = [];
  };
  for (const message of shown) {
    const parts = typeof message.content === 'string' ? [{ text: message.content }] : message.content;
    switch (message.type) {
      case 'user': {
        for (const result of message.toolResults ?? []) {
          const call = takeCall(pending, result);
          if (!call) continue;
          call.status = result.status;
          if (result.resultDisplay !== undefined) call.resultDisplay = result.resultDisplay;
        }
        // A log without those summaries (a session imported from another tool): the response says.
        for (const part of message.toolResults ? [] : parts) {
          const response = part.functionResponse;
          if (!response) continue;
          const call = takeCall(pending, { id: response.id ?? '', name: response.name });
          if (call) call.status = statusOf(response.response);
        }
        flushPending();
        const typed = message.displayContent ?? textOf(parts, { thoughts: false });
        if (typed.trim() !== '' && !parts.every((part) => part.functionResponse)) {
          items.push({ kind: 'user', text: typed });
        }
        break;
      }
      case 'gemini': {
        flushPending();
        const thought = textOf(parts, { thoughts: true });
        if (thought.trim() !== '') items.push({ kind: 'thought', text: thought });
        const text = textOf(parts, { thoughts: false });
        if (text.trim() !== '') items.push({ kind: 'model', text });
        const recorded = message.toolCalls ?? [];
        if (recorded.length > 0) {
          // Gemini CLI's logs keep each call with its result on the model message.
          for (const call of recorded) {
            items.push({
              kind: 'tool',
              call: view(call.id ?? call.name, call.name, call.args ?? {}, describe, endedAs(call.status)),
            });
          }
        } else {
          for (const part of parts) {
            const call = part.functionCall;
            if (call) {
              pending.push({
                call: view(call.id ?? call.name, call.name, call.args ?? {}, describe, 'cancelled'),
                recordedId: call.id,
                answered: false,
              });
            }
          }
        }
        break;
      }
      default:
        flushPending();
        items.push({
          kind: 'info',
          tone: message.type === 'error' ? 'error' : message.type === 'warning' ? 'warning' : 'info',
          text: textOf(parts, { thoughts: false }),
        });
    }
  }
  flushPending();
  return items;
}

/** A call drawn from a model message, waiting for the result that tells how it ended. */
interface PendingCall {
  call: ToolCallView;
  /** The id the model gave; Gemini gives none, and kodo then makes one up for the result only. */
  recordedId: string | undefined;
  answered: boolean;
}

/**
 * The call a recorded result belongs to: the one with its id, else (the model gave no ids, so
 * the call in the log has none while its result carries the id kodo made up) the first
 * unanswered id-less call of the same name — results are recorded in the order of the calls.
 */
function takeCall(pending: PendingCall[], result: { id: string; name: string }): ToolCallView | undefined {
  const found =
    pending.find(
      (entry) => !entry.answered && entry.recordedId !== undefined && entry.recordedId === result.id,
    ) ??
    pending.find(
      (entry) => !entry.answered && entry.recordedId === undefined && entry.call.name === result.name,
    );
  if (!found) return undefined;
  found.answered = true;
  return found.call;
}

function view(
  callId: string,
  name: string,
  args: Record<string, unknown>,
  describe: CallDescriber,
  status: ToolCallView['status'],
): ToolCallView {
  return { callId, name, ...describe(name, args), status };
}

/** How a call ended, from its function response: an error, a cancellation (`[Operation Cancelled]…`), or done. */
function statusOf(response: Record<string, unknown>): ToolCallView['status'] {
  if (typeof response.error !== 'string') return 'success';
  return response.error.startsWith('[Operation Cancelled]') ? 'cancelled' : 'error';
}

function endedAs(status: string | undefined): ToolCallView['status'] {
  return status === 'success' || status === 'error' || status === 'cancelled' ? status : 'success';
}

function textOf(parts: readonly Part[], options: { thoughts: boolean }): string {
  return parts
    .filter((part) => typeof part.text === 'string' && (part.thought === true) === options.thoughts)
    .map((part) => part.text)
    .join('');
}
