/**
 * `available_commands_update`: the commands a session offers the editor (see commands.ts). Sent
 * once the client knows the session, and again whenever the list changes: an MCP server that
 * connects late brings its prompts, one that goes away takes them. A server's changes come in
 * bursts (state, then tools, then prompts), so they settle first, and the list goes out only when
 * it differs from what the client was last told.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { InputSources, McpManagerEvent } from '@kodo/core/engine';
import { availableCommands } from './commands';

/** How long a burst of MCP changes is gathered before the list is compared. */
const SETTLE_MS = 100;

export interface CommandAnnouncementTarget {
  sources: InputSources;
  send: (update: acp.SessionUpdate) => Promise<void>;
  /** Where MCP changes are heard (the runtime's MCP manager); absent when no server is configured. */
  mcp?: { subscribe(listener: (event: McpManagerEvent) => void): () => void };
}

/** Starts announcing; returns the stop (when the session closes). */
export function announceCommands(target: CommandAnnouncementTarget): () => void {
  let told: string | undefined;
  const announce = () => {
    const commands = availableCommands(target.sources);
    const shown = JSON.stringify(commands);
    if (shown === told) return;
    told = shown;
    void target
      .send({ sessionUpdate: 'available_commands_update', availableCommands: commands })
      .catch(() => {
        // Not delivered: the next change compares against what the client may never have seen.
        if (told === shown) told = undefined;
      });
  };
  // After the answer to session/new or session/load: the client learns the session id first.
  const first = setImmediate(announce);
  let settling: NodeJS.Timeout | undefined;
  const unsubscribe = target.mcp?.subscribe((event) => {
    // Tools and resources are not commands; a server's state and its prompts are.
    if (event.type !== 'server_state' && event.type !== 'prompts_changed') return;
    clearTimeout(settling);
    settling = setTimeout(announce, SETTLE_MS);
    settling.unref();
  });
  return () => {
    clearImmediate(first);
    clearTimeout(settling);
    unsubscribe?.();
  };
}
