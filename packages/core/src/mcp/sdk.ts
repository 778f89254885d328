/**
 * The MCP SDK, imported on first connection only: no part of it (nor its HTTP, JSON Schema and
 * process-spawning dependencies) is on the startup path, even when servers are configured. Each
 * transport loads when a server needs it, so stdio-only setups never load the HTTP clients.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { routeFetchThroughProxy } from '../net/proxy-transport';
import { loadSseTransport, type SseTransportConstructor } from './sse-transport';

export interface McpSdk {
  Client: typeof Client;
  ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
  PromptListChangedNotificationSchema: typeof PromptListChangedNotificationSchema;
  ResourceListChangedNotificationSchema: typeof ResourceListChangedNotificationSchema;
  stdioTransport(): Promise<typeof StdioClientTransport>;
  streamableHttpTransport(): Promise<typeof StreamableHTTPClientTransport>;
  sseTransport(): Promise<SseTransportConstructor>;
}

export async function loadMcpSdk(): Promise<McpSdk> {
  const [client, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
    ResourceListChangedNotificationSchema: types.ResourceListChangedNotificationSchema,
    stdioTransport: async () =>
      (await import('@modelcontextprotocol/sdk/client/stdio.js')).StdioClientTransport,
    // The HTTP transports (and the OAuth they may run) use Node's fetch: behind a proxy its
    // dispatcher goes through it first (net/proxy-transport.ts; nothing loads without one).
    streamableHttpTransport: async () => {
      await routeFetchThroughProxy();
      return (await import('@modelcontextprotocol/sdk/client/streamableHttp.js'))
        .StreamableHTTPClientTransport;
    },
    sseTransport: async () => {
      await routeFetchThroughProxy();
      return loadSseTransport();
    },
  };
}
