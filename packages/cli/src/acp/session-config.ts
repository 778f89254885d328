/**
 * A session's settings as ACP shows them: the approval modes (both as ACP session modes and as the
 * `mode` config option, for clients that only know one of the two) and the model (the `model`
 * config option). Whichever way a client changes one, it hears `current_mode_update` and
 * `config_option_update` back, as it does when the model itself switches modes (plan mode).
 */
import * as acp from '@agentclientprotocol/sdk';
import { type ApprovalMode, catalogueEntries, type Session } from '@kodo/core/engine';

export const ACP_MODES: acp.SessionMode[] = [
  { id: 'default', name: 'Default', description: 'Asks before edits and commands' },
  { id: 'auto_edit', name: 'Auto Edit', description: 'Edits files without asking; asks before commands' },
  { id: 'yolo', name: 'YOLO', description: 'Runs every tool call without asking' },
  { id: 'plan', name: 'Plan', description: 'Read-only: explores and plans, changes nothing' },
];

export function modeState(session: Session): acp.SessionModeState {
  return { currentModeId: session.getApprovalMode(), availableModes: ACP_MODES };
}

export function configOptions(session: Session): acp.SessionConfigOption[] {
  const model = session.model;
  return [
    {
      id: 'mode',
      name: 'Approval mode',
      category: 'mode',
      type: 'select',
      currentValue: session.getApprovalMode(),
      options: ACP_MODES.map((mode) => ({
        value: mode.id,
        name: mode.name,
        ...(mode.description ? { description: mode.description } : {}),
      })),
    },
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: model,
      options: modelChoices(model),
    },
  ];
}

/** Sets the approval mode; an unknown mode, or one the settings lock out, is invalid params. */
export function applyMode(session: Session, modeId: string): void {
  const mode = ACP_MODES.find((candidate) => candidate.id === modeId);
  if (!mode) throw acp.RequestError.invalidParams(undefined, `Unknown mode: ${modeId}`);
  const decision = session.setApprovalMode(mode.id as ApprovalMode, { source: 'acp' });
  if (!decision.ok) throw acp.RequestError.invalidParams(undefined, decision.message);
}

/** `session/set_config_option`: `mode` or `model`, each with a value it offers. */
export function applyConfigOption(session: Session, request: acp.SetSessionConfigOptionRequest): void {
  const value = 'value' in request ? request.value : undefined;
  if (typeof value !== 'string') {
    throw acp.RequestError.invalidParams(undefined, `Option ${request.configId} takes one of its values`);
  }
  switch (request.configId) {
    case 'mode':
      applyMode(session, value);
      return;
    case 'model':
      if (!modelChoices(session.model).some((choice) => choice.value === value)) {
        throw acp.RequestError.invalidParams(undefined, `Unknown model: ${value}`);
      }
      session.setModel(value);
      return;
    default:
      throw acp.RequestError.invalidParams(undefined, `Unknown option: ${request.configId}`);
  }
}

/** The updates that tell the client the session's mode and options as they are now. */
export function stateUpdates(session: Session): acp.SessionUpdate[] {
  return [
    { sessionUpdate: 'current_mode_update', currentModeId: session.getApprovalMode() },
    { sessionUpdate: 'config_option_update', configOptions: configOptions(session) },
  ];
}

/**
 * Whoever switches the mode (the client, the plan tools, a key on another front end), the client
 * hears the mode and options as they are now: no polling around turns. Returns the unsubscribe.
 */
export function announceModeChanges(
  session: Session,
  send: (update: acp.SessionUpdate) => Promise<void>,
): () => void {
  return session.subscribe((change) => {
    if (change.type !== 'approval_mode_changed') return;
    for (const update of stateUpdates(session)) void send(update).catch(() => undefined);
  });
}

/** The current model and the known models of its provider (the one kodo has a key for). */
function modelChoices(current: string): acp.SessionConfigSelectOption[] {
  const colon = current.indexOf(':');
  const provider = colon > 0 ? current.slice(0, colon) : 'gemini';
  const prefix = colon > 0 ? `${provider}:` : '';
  const values = new Set([current]);
  for (const model of catalogueEntries()) if (model.provider === provider) values.add(`${prefix}${model.id}`);
  return [...values].map((value) => ({ value, name: value }));
}
