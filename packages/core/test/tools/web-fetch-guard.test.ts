import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isBlockedAddress, isBlockedHostname, parseIPv6 } from '../../src/tools/web/addresses';
import { BlockedHostError, guardedLookup, type HostLookup } from '../../src/tools/web/guarded-lookup';
import { fetchPage } from '../../src/tools/web/http-fetch';

describe('private address classification', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '192.0.0.192',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    'fd00::1',
    'fd00:ec2::254',
    'fc00::7',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '169.255.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    'example.com',
  ])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('blocks local and metadata host names, and parses IPv6 spellings alike', () => {
    for (const name of ['localhost', 'LOCALHOST.', 'app.localhost', 'metadata.google.internal']) {
      expect(isBlockedHostname(name)).toBe(true);
    }
    expect(isBlockedHostname('example.com')).toBe(false);
    expect(parseIPv6('::ffff:127.0.0.1')).toEqual(parseIPv6('0:0:0:0:0:ffff:7f00:1'));
    expect(parseIPv6('1::2::3')).toBeUndefined();
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(parseIPv6('12345::')).toBeUndefined();
  });
});

describe('guarded lookup', () => {
  const resolveWith =
    (answers: Record<string, string[]>): HostLookup =>
    async (hostname) =>
      (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  const lookupOnce = (lookup: ReturnType<typeof guardedLookup>, host: string, all: boolean) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => {
      lookup(host, { all }, (error, address, family) =>
        resolve(family === undefined ? { error, address } : { error, address, family }),
      );
    });

  it('answers in the form the socket asks for and refuses a name with any private address', async () => {
    const lookup = guardedLookup({
      lookup: resolveWith({
        'public.test': ['93.184.216.34', '2606:2800::1'],
        'mixed.test': ['93.184.216.34', '10.0.0.3'],
      }),
    });
    expect(await lookupOnce(lookup, 'public.test', false)).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
    expect((await lookupOnce(lookup, 'public.test', true)).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800::1', family: 6 },
    ]);
    const mixed = await lookupOnce(lookup, 'mixed.test', true);
    expect(mixed.error).toBeInstanceOf(BlockedHostError);
    expect(mixed.error?.message).toBe('Host mixed.test resolves to 10.0.0.3, a private or local address');
    expect((await lookupOnce(lookup, 'nowhere.test', false)).error).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('fetchPage redirects', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('checks every redirect hop before connecting to it', async () => {
    const hosts: string[] = [];
    server = createServer((req, res) => {
      hosts.push(String(req.headers.host));
      res.writeHead(302, { location: `http://inside.test:${port}/secret` }).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    // Both names reach the test server; only the policy says "inside.test" is private.
    const lookup = guardedLookup({
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      isBlocked: () => false,
    });
    const refusing = guardedLookup({
      lookup: async (hostname) => [
        { address: hostname === 'inside.test' ? '10.9.9.9' : '127.0.0.1', family: 4 },
      ],
      isBlocked: (address) => address.startsWith('10.'),
    });
    const options = {
      signal: new AbortController().signal,
      timeoutMs: 2000,
      maxBytes: 1000,
      maxRedirects: 5,
      isRefused: () => false,
    };
    await expect(
      fetchPage(`http://outside.test:${port}/`, { ...options, lookup: refusing }),
    ).rejects.toBeInstanceOf(BlockedHostError);
    expect(hosts).toEqual([`outside.test:${port}`]);

    // The literal check runs on redirect targets too (IP literals never reach the lookup).
    hosts.length = 0;
    const refuseInside = (url: URL) => url.hostname === 'inside.test';
    await expect(
      fetchPage(`http://outside.test:${port}/`, { ...options, lookup, isRefused: refuseInside }),
    ).rejects.toBeInstanceOf(BlockedHostError);
    expect(hosts).toEqual([`outside.test:${port}`]);
  });
});
