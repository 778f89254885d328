/**
 * `available_commands_update`: the commands a session offers the editor (see commands.ts), sent
 * once the client knows the session.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { InputSources } from '@kodo/core/engine';
import { availableCommands } from './commands';

export function announceCommands(target: {
  sources: InputSources;
  send: (update: acp.SessionUpdate) => Promise<void>;
}): () => void {
  // After the answer to session/new or session/load: the client learns the session id first.
  const first = setImmediate(() => {
    void target
      .send({
        sessionUpdate: 'available_commands_update',
        availableCommands: availableCommands(target.sources),
      })
      .catch(() => undefined);
  });
  return () => clearImmediate(first);
}
