import { describe, expect, it } from 'vitest';
import { commandHelp, HOOKS_HELP, MCP_ADD_HELP, MCP_HELP, MCP_REMOVE_HELP } from '../src/shared/help';

describe('commandHelp', () => {
  it("answers each subcommand's --help with its own usage", () => {
    expect(commandHelp(['hooks', '--help'])).toBe(HOOKS_HELP);
    expect(commandHelp(['hooks', 'disable', '-h'])).toBe(HOOKS_HELP);
    expect(commandHelp(['mcp', '--help'])).toBe(MCP_HELP);
    expect(commandHelp(['mcp', 'add', '--help'])).toBe(MCP_ADD_HELP);
    expect(commandHelp(['mcp', 'remove', '--help'])).toBe(MCP_REMOVE_HELP);
    expect(commandHelp(['mcp', 'add', '-s', 'user', '--help'])).toBe(MCP_ADD_HELP);
  });

  it("leaves a server's own --help and words after -- alone, and ignores non-commands", () => {
    expect(commandHelp(['mcp', 'add', 'files', 'npx', 'server', '--help'])).toBeUndefined();
    expect(commandHelp(['mcp', 'add', '-e', 'A=1', 'files', 'npx', '--help'])).toBeUndefined();
    expect(commandHelp(['hooks', '--', '--help'])).toBeUndefined();
    expect(commandHelp(['explain', 'this', '--help'])).toBeUndefined();
    expect(commandHelp(['hooks', 'list'])).toBeUndefined();
  });
});
