/**
 * MCP resources for the model and the person: the `list_mcp_resources` and
 * `read_mcp_resource` tools, and `@<server>:<uri>` references in a prompt.
 */
import * as z from 'zod';
import type { Part } from '../contracts/messages';
import { defineTool } from '../tools/define-tool';
import type { Tool, ToolResult } from '../tools/tool';
import type { McpResourceContents, McpResourceInfo } from './discovery';
import { capText, untrusted } from './results';

export const LIST_MCP_RESOURCES = 'list_mcp_resources';
export const READ_MCP_RESOURCE = 'read_mcp_resource';

/** What resource tools and references need of the connected servers. */
export interface McpResourceSource {
  /** Connected servers that offer resources, with their lists. */
  resourceServers(): { name: string; resources: McpResourceInfo[] }[];
  readResource(server: string, uri: string, signal: AbortSignal): Promise<McpResourceContents[]>;
}

/** Per resource read: a resource is context, not a dump of a database. */
const MAX_RESOURCE_CHARS = 100_000;
/** Binary types the models read as inline data. */
const INLINE_MEDIA = /^(image\/(png|jpeg|webp|gif)|audio\/|application\/pdf$)/;

export function createResourceTools(source: McpResourceSource): Tool[] {
  const list = defineTool({
    name: LIST_MCP_RESOURCES,
    displayName: 'List MCP Resources',
    kind: 'read',
    description:
      'Lists the resources (files, records, documents) that the connected MCP servers offer, with their URIs. Read one with read_mcp_resource.',
    parameters: z.object({
      server_name: z.string().optional().describe('Only this server’s resources (default: every server).'),
    }),
    describe: (params) => params.server_name ?? 'all servers',
    async execute(params): Promise<ToolResult> {
      const servers = source
        .resourceServers()
        .filter((server) => params.server_name === undefined || server.name === params.server_name);
      if (params.server_name !== undefined && servers.length === 0) {
        const message = unknownServer(params.server_name, source);
        return {
          llmContent: message,
          returnDisplay: message,
          error: { type: 'invalid_tool_params', message },
        };
      }
      const lines: string[] = [];
      let count = 0;
      for (const server of servers) {
        lines.push(`Server ${server.name}:`);
        if (server.resources.length === 0) lines.push('  (no resources listed)');
        for (const resource of server.resources) {
          count += 1;
          const facts = [resource.title ?? resource.name, resource.mimeType].filter(Boolean).join(', ');
          const about = resource.description ? ` — ${resource.description}` : '';
          lines.push(`  - ${resource.uri} (${facts})${about}`);
        }
      }
      const text = lines.length > 0 ? lines.join('\n') : 'No connected MCP server offers resources.';
      return { llmContent: text, returnDisplay: `${count} resource(s)` };
    },
  });
  const read = defineTool({
    name: READ_MCP_RESOURCE,
    displayName: 'Read MCP Resource',
    kind: 'read',
    description: 'Reads one resource of an MCP server by its URI (see list_mcp_resources).',
    parameters: z.object({
      server_name: z
        .string()
        .optional()
        .describe('The MCP server that offers the resource (default: the server that lists this URI).'),
      uri: z.string().min(1).describe('The resource URI, as listed by list_mcp_resources.'),
    }),
    describe: (params) => (params.server_name ? `${params.server_name}:${params.uri}` : params.uri),
    async execute(params, _ctx, options): Promise<ToolResult> {
      const found = resolveServer(params, source);
      if ('error' in found) {
        return {
          llmContent: found.error,
          returnDisplay: found.error,
          error: { type: 'invalid_tool_params', message: found.error },
        };
      }
      const server = found.server;
      try {
        const contents = await source.readResource(server, params.uri, options.signal);
        return resourceResult(contents);
      } catch (error) {
        const message = `Could not read ${params.uri} from MCP server '${server}': ${(error as Error).message}`;
        return {
          llmContent: message,
          returnDisplay: message,
          error: { type: 'read_content_failure', message },
        };
      }
    },
  });
  return [list, read];
}

/**
 * The server to read from: the one named, else the one whose resource list has this URI, else
 * the only server offering resources (a URI from a template is not in any list).
 */
function resolveServer(
  params: { server_name?: string | undefined; uri: string },
  source: McpResourceSource,
): { server: string } | { error: string } {
  const servers = source.resourceServers();
  if (params.server_name !== undefined) {
    return servers.some((server) => server.name === params.server_name)
      ? { server: params.server_name }
      : { error: unknownServer(params.server_name, source) };
  }
  const listing = servers.filter((server) =>
    server.resources.some((resource) => resource.uri === params.uri),
  );
  if (listing.length === 1) return { server: listing[0]!.name };
  if (listing.length === 0 && servers.length === 1) return { server: servers[0]!.name };
  const names = (listing.length > 1 ? listing : servers).map((server) => `'${server.name}'`).join(', ');
  if (servers.length === 0) return { error: 'No connected MCP server offers resources.' };
  return {
    error:
      listing.length > 1
        ? `Several MCP servers list ${params.uri} (${names}): give server_name.`
        : `No connected MCP server lists ${params.uri}. Give server_name (servers with resources: ${names}), or see list_mcp_resources.`,
  };
}

function unknownServer(name: string, source: McpResourceSource): string {
  const known = source.resourceServers().map((server) => `'${server.name}'`);
  return `No connected MCP server '${name}' offers resources.${known.length > 0 ? ` Servers with resources: ${known.join(', ')}.` : ''}`;
}

/** A resource's contents as a tool result: text marked untrusted, pictures and audio inline. */
function resourceResult(contents: McpResourceContents[]): ToolResult {
  const parts: Part[] = [];
  const display: string[] = [];
  for (const item of contents) {
    if (typeof item.text === 'string') {
      parts.push({ text: untrusted(capText(item.text, MAX_RESOURCE_CHARS)) });
      display.push(`${item.uri} (${item.text.length} characters)`);
    } else if (typeof item.blob === 'string') {
      const mimeType = item.mimeType ?? 'application/octet-stream';
      if (INLINE_MEDIA.test(mimeType)) {
        parts.push({ text: `[Resource ${item.uri} with mime-type: ${mimeType}]` });
        parts.push({ inlineData: { mimeType, data: item.blob } });
      } else {
        parts.push({ text: `[Resource ${item.uri} is binary (${mimeType}); its content is not shown.]` });
      }
      display.push(`${item.uri} (${mimeType})`);
    }
  }
  if (parts.length === 0) return { llmContent: '(The resource is empty.)', returnDisplay: '(empty)' };
  const textOnly = parts.every((part) => part.inlineData === undefined);
  return {
    llmContent: textOnly ? parts.map((part) => part.text).join('\n') : parts,
    returnDisplay: display.join('\n'),
  };
}

export interface ExpandedResourceReferences {
  /** The prompt with each referenced resource's content appended. */
  text: string;
  /** `server:uri` of each resource attached. */
  attached: string[];
  /** Why a reference was not attached (for the person). */
  skipped: string[];
}

/**
 * `@<server>:<uri>` in a prompt, for a connected server that offers resources: the resource's text
 * is appended as `Content from @<server>:<uri>:` and the content. Other `@` words (file paths)
 * are left for the file-reference expansion.
 */
export async function expandResourceReferences(
  text: string,
  source: McpResourceSource,
  signal: AbortSignal,
): Promise<ExpandedResourceReferences> {
  const servers = new Set(source.resourceServers().map((server) => server.name));
  const attached: string[] = [];
  const skipped: string[] = [];
  const blocks: string[] = [];
  for (const reference of findResourceReferences(text)) {
    if (!servers.has(reference.server)) continue;
    const label = `${reference.server}:${reference.uri}`;
    if (attached.includes(label)) continue;
    try {
      const contents = await source.readResource(reference.server, reference.uri, signal);
      const body = contents
        .map((item) =>
          typeof item.text === 'string'
            ? capText(item.text, MAX_RESOURCE_CHARS)
            : `[binary content, ${item.mimeType ?? 'unknown type'}]`,
        )
        .join('\n');
      blocks.push(`\nContent from @${label}:\n${body}`);
      attached.push(label);
    } catch (error) {
      skipped.push(`@${label}: ${(error as Error).message}`);
    }
  }
  return { text: blocks.length > 0 ? `${text}\n${blocks.join('\n')}` : text, attached, skipped };
}

/** `@server:uri` words (after whitespace or at the start). */
export function findResourceReferences(text: string): { server: string; uri: string }[] {
  const found: { server: string; uri: string }[] = [];
  for (const match of text.matchAll(/(?:^|\s)@([A-Za-z0-9_.-]+):(\S+)/g)) {
    found.push({ server: match[1]!, uri: match[2]!.replace(/[.,;:!?)]+$/, '') });
  }
  return found;
}
