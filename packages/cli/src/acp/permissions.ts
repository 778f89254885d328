/**
 * Approvals over ACP: a call the policy wants confirmed becomes a `session/request_permission`
 * to the editor, with kodo's outcomes as the options. A cancelled turn or request, or an answer
 * kodo did not offer, is a refusal: the tool does not run.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { ConfirmationResponse, ConfirmHandler, ToolRegistry } from '@kodo/core/engine';
import type { CallIds } from './call-ids';
import { confirmationContent, toolCallStart } from './tool-calls';

export const PERMISSION_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];

export interface PermissionTarget {
  sessionId: string;
  client: acp.AgentContext;
  tools: ToolRegistry;
  cwd: string;
  /** A subagent's call is asked about under its ACP id (see call-ids.ts). */
  calls: CallIds;
}

export function editorConfirmHandler(target: () => PermissionTarget): ConfirmHandler {
  return async ({ call, details, signal }) => {
    const { sessionId, client, tools, cwd, calls } = target();
    // The call's own events go out first, so a subagent's call is known by its nested id.
    await new Promise((resolve) => setImmediate(resolve));
    const start = { ...toolCallStart(call, tools, cwd), toolCallId: calls.idOf(call.callId) };
    let answer: acp.RequestPermissionResponse;
    try {
      answer = await client.request(
        'session/request_permission',
        {
          sessionId,
          toolCall: { ...start, title: details.title, content: confirmationContent(details) },
          options: PERMISSION_OPTIONS,
        },
        // A cancelled turn does not wait for the editor to withdraw its dialog.
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
    } catch (error) {
      return { outcome: 'cancel', reason: `The editor did not answer: ${(error as Error).message}` };
    }
    return outcomeOf(answer);
  };
}

/** The editor's choice; an answer of any other shape is a refusal (the tool does not run). */
function outcomeOf(answer: acp.RequestPermissionResponse): ConfirmationResponse {
  const outcome = (answer as { outcome?: { outcome?: unknown; optionId?: unknown } } | null)?.outcome;
  if (outcome?.outcome !== 'selected') {
    return outcome?.outcome === 'cancelled'
      ? { outcome: 'cancel' }
      : { outcome: 'cancel', reason: "The editor's answer to the permission request could not be read." };
  }
  switch (outcome.optionId) {
    case 'proceed_once':
      return { outcome: 'proceed_once' };
    case 'proceed_always':
      return { outcome: 'proceed_always' };
    default:
      return { outcome: 'cancel' };
  }
}
