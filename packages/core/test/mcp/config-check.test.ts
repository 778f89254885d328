import { describe, expect, it } from 'vitest';
import { gateMcpServers } from '../../src/mcp/config-check';

const servers = {
  local: { command: 'local-server' },
  remote: { url: 'https://example.test/mcp' },
  other: { command: 'other-server' },
};

describe('gateMcpServers', () => {
  it('starts every server in a trusted folder when the settings turn none off', () => {
    const { startable, held } = gateMcpServers({ servers, trusted: true });
    expect(Object.keys(startable)).toEqual(['local', 'remote', 'other']);
    expect(held.size).toBe(0);
  });

  it('mcp.excluded wins over mcp.allowed, and mcp.allowed keeps out every name it does not list', () => {
    const { startable, held } = gateMcpServers({
      servers,
      mcp: { allowed: ['local', 'remote'], excluded: ['local'] },
      trusted: true,
    });
    expect(Object.keys(startable)).toEqual(['remote']);
    expect([...held]).toEqual([
      ['local', 'excluded'],
      ['other', 'not-allowed'],
    ]);
  });

  it('an untrusted folder starts no stdio server (a project could name any command), remote ones still', () => {
    const { startable, held } = gateMcpServers({ servers, trusted: false });
    expect(Object.keys(startable)).toEqual(['remote']);
    expect([...held]).toEqual([
      ['local', 'untrusted'],
      ['other', 'untrusted'],
    ]);
  });

  it('fails closed on an mcp.allowed it cannot read: a list of nothing starts nothing', () => {
    const { startable, held } = gateMcpServers({
      servers,
      mcp: { allowed: 'local' as unknown as string[] },
      trusted: true,
    });
    expect(startable).toEqual({});
    expect(held.get('local')).toBe('not-allowed');
  });
});
