/**
 * DNS resolution for web_fetch that cannot be rebound. Checking a host name and then letting the
 * HTTP client resolve it again leaves a gap: a hostile DNS server can answer the check with a
 * public address and the connection with 127.0.0.1. Here the check happens inside the `lookup`
 * the socket itself uses, on every address it could connect to, so the address that was checked
 * is the address that is dialled.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { loadBuiltin } from '../../utils/builtin';
import { isBlockedAddress } from './addresses';

/** Resolves a host name to all its addresses (the shape of `dns.promises.lookup` with `all`). */
export type HostLookup = (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

/** Raised when a host resolves to (or is) an address web_fetch may not reach. */
export class BlockedHostError extends Error {
  readonly code = 'EBLOCKEDHOST';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`Host ${hostname} resolves to ${address}, a private or local address`);
    this.name = 'BlockedHostError';
  }
}

export const systemLookup: HostLookup = async (hostname, family) => {
  const dns = loadBuiltin('node:dns');
  return dns.promises.lookup(hostname, { all: true, family, verbatim: true });
};

export interface GuardedLookupOptions {
  lookup: HostLookup;
  /** Whether an address may be dialled; default: not private, loopback, link-local, … */
  isBlocked?: (address: string) => boolean;
}

/**
 * A `lookup` for `http.request`: resolves with `options.lookup`, refuses the host when any of its
 * addresses is blocked (a name with one private address is not trusted with the others), and
 * answers in the callback form the socket asked for.
 */
export function guardedLookup(options: GuardedLookupOptions): LookupFunction {
  const isBlocked = options.isBlocked ?? isBlockedAddress;
  return (hostname: string, lookupOptions: LookupOptions, callback) => {
    const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
    options.lookup(hostname, family).then(
      (addresses) => {
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
          return;
        }
        const blocked = addresses.find((entry) => isBlocked(entry.address));
        if (blocked) {
          callback(new BlockedHostError(hostname, blocked.address), '', 0);
          return;
        }
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** A `lookup` that resolves without checks (private-network fetching allowed). */
export function plainLookup(lookup: HostLookup): LookupFunction {
  return guardedLookup({ lookup, isBlocked: () => false });
}
