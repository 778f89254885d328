#!/usr/bin/env node
// A tiny MCP server (stdio) for kodo's tests: the cases real servers do not produce on demand.
//   --start-delay=<ms>   answer nothing for that long after starting (a slow server)
//   --exit-at-start=<n>  print a reason on stderr and exit with code n (a dead server)
// Tools: echo, crash (exits while the call runs), slow (progress notifications), fail
// (isError), picture (an image), add_tool (registers a tool and sends list_changed), and
// odd.schema (a name and schema providers reject as they are). One resource, one prompt.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const option = (name) => {
  const prefix = `--${name}=`;
  const found = process.argv.find((arg) => arg.startsWith(prefix));
  return found === undefined ? undefined : found.slice(prefix.length);
};

const exitAtStart = option('exit-at-start');
if (exitAtStart !== undefined) {
  process.stderr.write('tiny server: refusing to start (--exit-at-start)\n');
  process.exit(Number(exitAtStart));
}

// A 1x1 transparent PNG.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const tools = [
  {
    name: 'echo',
    description: 'Echoes the text back.',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  { name: 'crash', description: 'Exits the server while the call runs.', inputSchema: { type: 'object' } },
  {
    name: 'slow',
    description: 'Waits, reporting progress.',
    inputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
  },
  { name: 'fail', description: 'Reports a tool error.', inputSchema: { type: 'object' } },
  { name: 'picture', description: 'Returns a tiny image.', inputSchema: { type: 'object' } },
  {
    name: 'add_tool',
    description: 'Adds a tool and tells the client its list changed.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  {
    name: 'odd.schema',
    description: 'A tool whose schema uses $ref, type arrays and formats.',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { link: { type: 'string', format: 'uri' } },
      properties: {
        target: { $ref: '#/definitions/link' },
        count: { type: ['integer', 'null'] },
        tags: { type: 'array' },
      },
      required: ['target'],
      additionalProperties: false,
    },
  },
];

const server = new Server(
  { name: 'tiny', version: '1.0.0' },
  {
    capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
    instructions: 'The tiny test server.',
  },
);

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case 'echo':
      return { content: [{ type: 'text', text: `echo: ${args.text}` }] };
    case 'crash':
      process.stderr.write('tiny server: crashing on purpose\n');
      setTimeout(() => process.exit(3), 10);
      return new Promise(() => undefined);
    case 'slow': {
      const ms = typeof args.ms === 'number' ? args.ms : 100;
      const token = request.params._meta?.progressToken;
      for (let step = 1; step <= 2; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, ms / 2));
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: step, total: 2, message: `step ${step}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
    }
    case 'fail':
      return { content: [{ type: 'text', text: 'it went wrong' }], isError: true };
    case 'picture':
      return {
        content: [
          { type: 'text', text: 'a picture' },
          { type: 'image', data: PIXEL, mimeType: 'image/png' },
        ],
      };
    case 'add_tool':
      tools.push({ name: String(args.name), description: 'Added at run time.', inputSchema: { type: 'object' } });
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: `added ${args.name}` }] };
    case 'odd.schema':
      return { content: [{ type: 'text', text: `target ${args.target}` }] };
    default:
      return { content: [{ type: 'text', text: `ran ${request.params.name}` }] };
  }
});

server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: 'tiny://notes/hello', name: 'hello', mimeType: 'text/plain', description: 'A greeting.' }],
}));

server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  if (request.params.uri !== 'tiny://notes/hello') throw new Error(`unknown resource ${request.params.uri}`);
  return { contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: 'Hello from a resource.' }] };
});

server.setRequestHandler(ListPromptsRequestSchema, async () => ({
  prompts: [
    {
      name: 'greet',
      description: 'Greets someone.',
      arguments: [
        { name: 'name', description: 'Who to greet', required: true },
        { name: 'tone', description: 'How' },
      ],
    },
  ],
}));

server.setRequestHandler(GetPromptRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  return {
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: `Say hello to ${args.name} in a ${args.tone ?? 'plain'} tone.` },
      },
    ],
  };
});

const delay = Number(option('start-delay') ?? 0);
setTimeout(() => {
  server.connect(new StdioServerTransport()).catch((error) => {
    process.stderr.write(`tiny server: ${error.message}\n`);
    process.exit(1);
  });
}, delay);
