/**
 * What an MCP server offers, as kodo keeps it: tools, prompts and resources, read page by page.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isToolEnabled, type McpServerConfig } from './config';
import type { McpContentBlock } from './results';

export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  annotations?: Record<string, unknown>;
}

export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface McpPromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgument[];
}

export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface McpPromptMessage {
  role: string;
  content: McpContentBlock;
}

/** Every tool the server lists (all pages) that the entry's include/exclude lists allow. */
export async function listTools(
  client: Client,
  config: McpServerConfig,
  timeout: number,
): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout });
    for (const tool of page.tools) {
      if (!isToolEnabled(config, tool.name)) continue;
      tools.push({
        name: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema,
        ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

export async function listPrompts(client: Client, timeout: number): Promise<McpPromptInfo[]> {
  const prompts: McpPromptInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listPrompts(cursor ? { cursor } : {}, { timeout });
    for (const prompt of page.prompts) {
      prompts.push({
        name: prompt.name,
        ...(prompt.title ? { title: prompt.title } : {}),
        ...(prompt.description ? { description: prompt.description } : {}),
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          ...(argument.description ? { description: argument.description } : {}),
          ...(argument.required ? { required: true } : {}),
        })),
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return prompts;
}

export async function listResources(client: Client, timeout: number): Promise<McpResourceInfo[]> {
  const resources: McpResourceInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor ? { cursor } : {}, { timeout });
    for (const resource of page.resources) {
      resources.push({
        uri: resource.uri,
        name: resource.name,
        ...(resource.title ? { title: resource.title } : {}),
        ...(resource.description ? { description: resource.description } : {}),
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return resources;
}
