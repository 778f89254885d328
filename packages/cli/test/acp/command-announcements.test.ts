/**
 * The commands an editor is offered follow the MCP servers: re-sent when a server's state or
 * prompts change the list, once per burst of changes, and never when the list is the same.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { McpManagerEvent, McpPromptCommand } from '@kodo/core/engine';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announceCommands } from '../../src/acp/command-announcements';

function fakeMcp() {
  let prompts: McpPromptCommand[] = [];
  const listeners = new Set<(event: McpManagerEvent) => void>();
  return {
    source: {
      promptCommands: () => prompts,
      getPrompt: async () => [],
      resourceServers: () => [],
      readResource: async () => [],
    },
    subscribe(listener: (event: McpManagerEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listeners,
    setPrompts(names: string[]) {
      prompts = names.map((name) => ({
        name,
        server: 'tiny',
        description: `${name} prompt`,
        prompt: { name, arguments: [] },
      }));
    },
    emit(event: McpManagerEvent) {
      for (const listener of listeners) listener(event);
    },
  };
}

const connected: McpManagerEvent = {
  type: 'server_state',
  server: 'tiny',
  state: 'connected',
  previous: 'connecting',
};

describe('announceCommands', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start() {
    const mcp = fakeMcp();
    const sent: acp.AvailableCommand[][] = [];
    const stop = announceCommands({
      sources: { mcp: mcp.source },
      send: async (update) => {
        if (update.sessionUpdate === 'available_commands_update') sent.push(update.availableCommands);
      },
      mcp,
    });
    const names = () =>
      sent.map((commands) => commands.map((command) => command.name).filter((name) => name.startsWith('p')));
    return { mcp, sent, stop, names };
  }

  it('sends the list once the session is answered, and again when a late server brings prompts', async () => {
    const { mcp, names } = start();
    await vi.runAllTimersAsync();
    expect(names()).toEqual([[]]);
    mcp.setPrompts(['plan']);
    mcp.emit(connected);
    mcp.emit({ type: 'prompts_changed', server: 'tiny' });
    await vi.runAllTimersAsync();
    expect(names()).toEqual([[], ['plan']]);
  });

  it('does not send a list the client already has, nor for tool and resource changes', async () => {
    const { mcp, sent } = start();
    await vi.runAllTimersAsync();
    mcp.emit(connected);
    mcp.emit({ type: 'tools_changed', server: 'tiny', added: ['x'], removed: [] });
    await vi.runAllTimersAsync();
    expect(sent).toHaveLength(1);
    mcp.setPrompts(['probe']);
    mcp.emit({ type: 'resources_changed', server: 'tiny' });
    await vi.runAllTimersAsync();
    expect(sent).toHaveLength(1);
  });

  it('drops prompts when their server goes away, and stops listening when the session closes', async () => {
    const { mcp, names, stop } = start();
    mcp.setPrompts(['plan']);
    await vi.runAllTimersAsync();
    mcp.setPrompts([]);
    mcp.emit({ type: 'server_state', server: 'tiny', state: 'disconnected', previous: 'connected' });
    await vi.runAllTimersAsync();
    expect(names()).toEqual([['plan'], []]);
    stop();
    expect(mcp.listeners.size).toBe(0);
  });
});
