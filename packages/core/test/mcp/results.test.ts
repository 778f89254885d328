import { describe, expect, it } from 'vitest';
import { convertToolResult } from '../../src/mcp/results';

const call = { toolName: 'search', args: { q: 'x' } };

describe('convertToolResult', () => {
  it('keeps a text-only result one string, marked untrusted', () => {
    const result = convertToolResult(call, {
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    });
    expect(result).toEqual({
      llmContent: '<untrusted_context>\none\ntwo\n</untrusted_context>',
      returnDisplay: 'one\ntwo',
    });
  });

  it('turns images, audio and blobs into inline data, with notes and links as text', () => {
    const result = convertToolResult(call, {
      content: [
        { type: 'image', data: 'AAA', mimeType: 'image/png' },
        { type: 'audio', data: 'BBB', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'x://a', mimeType: 'application/pdf', blob: 'CCC' } },
        { type: 'resource', resource: { uri: 'x://b', text: 'embedded text' } },
        { type: 'resource_link', uri: 'x://c', name: 'c-name', title: 'C' },
        { type: 'resource_link', uri: 'x://d', name: 'd-name' },
      ],
    });
    expect(result.llmContent).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'AAA' } },
      { inlineData: { mimeType: 'audio/wav', data: 'BBB' } },
      {
        text: "<untrusted_context>\n[Tool 'search' provided the following embedded resource with mime-type: application/pdf]\n</untrusted_context>",
      },
      { inlineData: { mimeType: 'application/pdf', data: 'CCC' } },
      { text: '<untrusted_context>\nembedded text\n</untrusted_context>' },
      { text: '<untrusted_context>\n[Link to C: x://c]\n</untrusted_context>' },
      { text: '<untrusted_context>\n[Link to d-name: x://d]\n</untrusted_context>' },
    ]);
    expect(result.returnDisplay).toContain('[image: image/png]');
  });

  it('reports isError as mcp_tool_error with the call and the response', () => {
    const result = convertToolResult(call, { content: [{ type: 'text', text: 'bad query' }], isError: true });
    expect(result.error).toEqual({
      type: 'mcp_tool_error',
      message: `MCP tool 'search' reported tool error for function call: {"name":"search","args":{"q":"x"}} with response: [{"type":"text","text":"bad query"}]`,
    });
    expect(result.returnDisplay).toBe('bad query');
  });

  it('uses structured content when there is no content, and says so when there is nothing', () => {
    expect(convertToolResult(call, { structuredContent: { n: 1 } }).llmContent).toContain('"n": 1');
    expect(convertToolResult(call, { content: [] }).llmContent).toBe('(The tool returned no content.)');
  });

  it('cuts a long text part that travels with media', () => {
    const result = convertToolResult(call, {
      content: [
        { type: 'text', text: 'x'.repeat(50_000) },
        { type: 'image', data: 'AAA', mimeType: 'image/png' },
      ],
    });
    const text = (result.llmContent as { text?: string }[])[0]!.text!;
    expect(text.length).toBeLessThan(41_000);
    expect(text).toContain('characters omitted');
  });
});
