#!/usr/bin/env node
// A tiny MCP server (stdio) for kodo's tests: the cases real servers do not produce on demand.
//   --start-delay=<ms>   answer nothing for that long after starting (a slow server)
//   --exit-at-start=<n>  print a reason on stderr and exit with code n (a dead server)
//   --extra-tools=<n>    also offer n generated tools shaped like a real API server's
//                        (`<area>_<action>_<i>`: a sentence of description, four parameters)
// Tools: echo, crash (exits while the call runs), slow (progress notifications), fail
// (isError), picture (an image), add_tool (registers a tool and sends list_changed), and
// odd.schema (a name and schema providers reject as they are). One resource, one prompt.
import { createInterface } from 'node:readline';

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

const AREAS = [
  'issues',
  'invoices',
  'calendar',
  'deployments',
  'customers',
  'tickets',
  'metrics',
  'documents',
];
const ACTIONS = ['list', 'get', 'create', 'update', 'search'];
for (let index = 0; index < Number(option('extra-tools') ?? 0); index += 1) {
  const area = AREAS[index % AREAS.length];
  const action = ACTIONS[Math.floor(index / AREAS.length) % ACTIONS.length];
  tools.push({
    name: `${area}_${action}_${index}`,
    description: `${action[0].toUpperCase()}${action.slice(1)} ${area} in the workspace's ${area} service (variant ${index}); results are paginated and sorted by last update.`,
    inputSchema: {
      type: 'object',
      properties: {
        workspace: { type: 'string', description: 'The workspace the records belong to.' },
        query: { type: 'string', description: `Text to match in the ${area}' titles and bodies.` },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Records per page (default 20).' },
        cursor: { type: 'string', description: 'The cursor of the next page, from the previous answer.' },
      },
      required: ['workspace'],
    },
  });
}

// Plain JSON-RPC over stdio, one message per line: no SDK to load, so the server starts in a
// few milliseconds and tests stay fast.
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const notify = (method, params) => send({ method, ...(params ? { params } : {}) });

const resources = [
  { uri: 'tiny://notes/hello', name: 'hello', mimeType: 'text/plain', description: 'A greeting.' },
];
const prompts = [
  {
    name: 'greet',
    description: 'Greets someone.',
    arguments: [
      { name: 'name', description: 'Who to greet', required: true },
      { name: 'tone', description: 'How' },
    ],
  },
];

const text = (value) => ({ content: [{ type: 'text', text: value }] });

async function callTool(params) {
  const args = params.arguments ?? {};
  switch (params.name) {
    case 'echo':
      return text(`echo: ${args.text}`);
    case 'crash':
      process.stderr.write('tiny server: crashing on purpose\n');
      setTimeout(() => process.exit(3), 10);
      return new Promise(() => undefined);
    case 'slow': {
      const ms = typeof args.ms === 'number' ? args.ms : 100;
      const token = params._meta?.progressToken;
      for (let step = 1; step <= 2; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, ms / 2));
        if (token !== undefined) {
          notify('notifications/progress', {
            progressToken: token,
            progress: step,
            total: 2,
            message: `step ${step}`,
          });
        }
      }
      return text(`waited ${ms} ms`);
    }
    case 'fail':
      return { ...text('it went wrong'), isError: true };
    case 'picture':
      return {
        content: [
          { type: 'text', text: 'a picture' },
          { type: 'image', data: PIXEL, mimeType: 'image/png' },
        ],
      };
    case 'add_tool':
      tools.push({
        name: String(args.name),
        description: 'Added at run time.',
        inputSchema: { type: 'object' },
      });
      notify('notifications/tools/list_changed');
      return text(`added ${args.name}`);
    case 'odd.schema':
      return text(`target ${args.target}`);
    default:
      return text(`ran ${params.name}`);
  }
}

async function handle(method, params) {
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
        serverInfo: { name: 'tiny', version: '1.0.0' },
        instructions: 'The tiny test server.',
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools };
    case 'tools/call':
      return callTool(params);
    case 'resources/list':
      return { resources };
    case 'resources/read':
      if (params.uri !== 'tiny://notes/hello') throw new Error(`unknown resource ${params.uri}`);
      return { contents: [{ uri: params.uri, mimeType: 'text/plain', text: 'Hello from a resource.' }] };
    case 'prompts/list':
      return { prompts };
    case 'prompts/get': {
      const args = params.arguments ?? {};
      const body = `Say hello to ${args.name} in a ${args.tone ?? 'plain'} tone.`;
      return { messages: [{ role: 'user', content: { type: 'text', text: body } }] };
    }
    default: {
      const error = new Error(`Method not found: ${method}`);
      error.code = -32601;
      throw error;
    }
  }
}

function serve() {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const message = JSON.parse(line);
    // Notifications (initialized, cancelled) need no answer.
    if (message.id === undefined) return;
    handle(message.method, message.params ?? {}).then(
      (result) => send({ id: message.id, result }),
      (error) => send({ id: message.id, error: { code: error.code ?? -32603, message: error.message } }),
    );
  });
  lines.on('close', () => process.exit(0));
}

const delay = Number(option('start-delay') ?? 0);
setTimeout(serve, delay);
