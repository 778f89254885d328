import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The SDK's `SSEClientTransport`, typed as far as kodo uses it (see sse-transport.js). */
export type SseTransportConstructor = new (
  url: URL,
  options?: { requestInit?: RequestInit; authProvider?: OAuthClientProvider },
) => Transport;

export function loadSseTransport(): Promise<SseTransportConstructor>;
