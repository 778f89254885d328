import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, mcpDisplayName, mcpToolName, uniqueMcpToolName } from '../../src/mcp/naming';

describe('MCP tool names', () => {
  it.each([
    ['github', 'create_issue', 'mcp_github_create_issue'],
    ['everything', 'get-sum', 'mcp_everything_get-sum'],
    // Characters OpenAI and Anthropic reject become `_` (Gemini CLI would keep `.` and `:`).
    ['my server', 'odd.name:v2', 'mcp_my_server_odd_name_v2'],
    ['ünï', 'tööl', 'mcp__n__t__l'],
    // Already prefixed: not doubled.
    ['mcp', 'x', 'mcp_x'],
  ])('%s / %s → %s', (server, tool, expected) => {
    expect(mcpToolName(server, tool)).toBe(expected);
  });

  it('shortens long names to 63 characters with a stable suffix that tells tools apart', () => {
    const long = 'a_very_long_tool_name_that_goes_on_and_on_and_on_for_a_while';
    const one = mcpToolName('server', `${long}_one`);
    const two = mcpToolName('server', `${long}_two`);
    expect(one).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(one).toMatch(/^mcp_server_a_very_long.*_[0-9a-f]{8}$/);
    expect(two).not.toBe(one);
    expect(mcpToolName('server', `${long}_one`)).toBe(one);
    expect(one).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('gives a taken name a hashed variant', () => {
    const taken = new Set(['mcp_a_b_c']);
    const name = uniqueMcpToolName('a_b', 'c', (candidate) => taken.has(candidate));
    expect(name).toMatch(/^mcp_a_b_c_[0-9a-f]{8}$/);
    expect(uniqueMcpToolName('a', 'b_c', () => false)).toBe('mcp_a_b_c');
  });

  it('displays the tool with its server', () => {
    expect(mcpDisplayName('github', 'create_issue')).toBe('create_issue (github MCP Server)');
  });
});
