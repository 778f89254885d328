import { describe, expect, it } from 'vitest';
import type { McpPromptArgument } from '../../src/mcp/discovery';
import { parsePromptArguments, promptCommands, promptHelp, promptText } from '../../src/mcp/prompts';
import { expandResourceReferences, findResourceReferences } from '../../src/mcp/resources';

const args: McpPromptArgument[] = [{ name: 'name', required: true, description: 'Who' }, { name: 'tone' }];

describe('parsePromptArguments', () => {
  it.each([
    ['--name="Ada Lovelace" --tone=warm', { name: 'Ada Lovelace', tone: 'warm' }],
    ['--tone=warm Ada Lovelace', { name: 'Ada Lovelace', tone: 'warm' }],
    ['Ada warm', { name: 'Ada', tone: 'warm' }],
    ['"Ada Lovelace" warm', { name: 'Ada Lovelace', tone: 'warm' }],
    ["--name='O\\'Brien'", { name: "O'Brien" }],
    ['"--tone=warm" x', { name: '--tone=warm', tone: 'x' }],
  ])('%s', (input, values) => {
    expect(parsePromptArguments(input, args)).toEqual({ ok: true, values });
  });

  it('names every missing required argument', () => {
    const two: McpPromptArgument[] = [
      { name: 'a', required: true },
      { name: 'b', required: true },
    ];
    expect(parsePromptArguments('', two)).toEqual({
      ok: false,
      message: 'Missing required argument(s): --a, --b',
    });
    expect(parsePromptArguments('--tone=x', args)).toEqual({
      ok: false,
      message: 'Missing required argument(s): --name',
    });
  });
});

describe('prompt commands', () => {
  const servers = [
    {
      name: 'one',
      prompts: [
        { name: 'greet', arguments: args, description: 'Greets.' },
        { name: 'solo', arguments: [] },
      ],
    },
    { name: 'two', prompts: [{ name: 'greet', arguments: [] }] },
  ];

  it('qualifies names two servers share', () => {
    expect(promptCommands(servers).map((command) => command.name)).toEqual([
      'one:greet',
      'solo',
      'two:greet',
    ]);
  });

  it('lists the arguments for `/<prompt> help`', () => {
    const [greet] = promptCommands(servers);
    expect(promptHelp(greet!)).toBe(
      [
        '/one:greet — Greets. (one MCP server)',
        'Arguments:',
        '  --name (required): Who',
        '  --tone',
        'Example: /one:greet --name="…" --tone="…"',
      ].join('\n'),
    );
  });

  it('joins the messages into one prompt', () => {
    expect(
      promptText([
        { role: 'user', content: { type: 'text', text: 'First.' } },
        { role: 'assistant', content: { type: 'resource', resource: { uri: 'x://a', text: 'Attached.' } } },
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'A' } },
      ]),
    ).toBe('First.\n\nAttached.\n\n[image content (image/png) omitted]');
  });
});

describe('@server:uri references', () => {
  const source = {
    resourceServers: () => [{ name: 'docs', resources: [] }],
    readResource: async (_server: string, uri: string) => {
      if (uri === 'docs://missing') throw new Error('not found');
      return [{ uri, text: `content of ${uri}` }];
    },
  };

  it('finds references after whitespace', () => {
    expect(findResourceReferences('see @docs:docs://a/b.md, and mail@x:y')).toEqual([
      { server: 'docs', uri: 'docs://a/b.md' },
    ]);
  });

  it('appends the content of known servers’ resources and reports failures', async () => {
    const expanded = await expandResourceReferences(
      'Summarise @docs:docs://guide and @docs:docs://missing and @src/file.ts',
      source,
      new AbortController().signal,
    );
    expect(expanded.text).toBe(
      'Summarise @docs:docs://guide and @docs:docs://missing and @src/file.ts\n\nContent from @docs:docs://guide:\ncontent of docs://guide',
    );
    expect(expanded.attached).toEqual(['docs:docs://guide']);
    expect(expanded.skipped).toEqual(['@docs:docs://missing: not found']);
  });
});
