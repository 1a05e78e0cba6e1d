import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** How long a receiver has to answer one delivery. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Loopback, private, link-local, shared, multicast and reserved ranges: never a webhook's target. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // the unspecified address, loopback and the old IPv4-compatible addresses (::a.b.c.d)
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/**
 * The IPv4 address an IPv6 one carries to an IPv4 host: IPv4-mapped (`::ffff:a.b.c.d`, also written
 * `::ffff:7f00:1`) and the NAT64 well-known prefix (`64:ff9b::/96`); null for any other.
 */
const embeddedIpv4 = (address: string): string | null => {
  let canonical: string;
  try {
    // The URL parser writes every spelling of an IPv6 address one way (hex groups, compressed).
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1).toLowerCase();
  } catch {
    return null;
  }
  const match = /^(?:::ffff|64:ff9b:):([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return null;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

/** Whether an address is private, local or reserved (never a webhook's target); non-IPs are. */
export const isPrivateAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4) return blocked.check(v4, 'ipv4');
  return blocked.check(address, 'ipv6');
};

export type AddressVerdict = 'ok' | 'invalid' | 'private';

/** Answers every address a host name has now (the system resolver, or a test's double). */
export type HostResolver = (host: string) => Promise<string[]>;

/**
 * A delivery refused before any connection: the URL is not one we send to, or its name resolved
 * (at sending time) to a private or local address.
 */
export class WebhookAddressRefused extends Error {
  override readonly name = 'WebhookAddressRefused';
  constructor(readonly verdict: Exclude<AddressVerdict, 'ok'>) {
    super(verdict === 'private' ? 'the address is private or local' : 'the address is invalid');
  }
}

/** The signature header value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const signatureHeader = (secret: string, body: string, unixSeconds: number): string =>
  `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;

/** A URL we send to: http(s), a host, no credentials in it. */
const parseTarget = (rawUrl: string): URL | null => {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || !url.hostname) return null;
  return url;
};

/** The host of a URL as a resolver or `isIP` takes it (an IPv6 literal without its brackets). */
const bareHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/**
 * POSTs webhook bodies. Every address the host name resolves to is checked, when the endpoint is
 * saved (`check`) and when a delivery is sent: a private, loopback, link-local or unique-local
 * one (IPv4, IPv6, IPv4-mapped IPv6) is refused unless `allowPrivate`
 * (FLASHBULB_WEBHOOKS_ALLOW_PRIVATE, for tests and closed networks). A delivery resolves the name
 * ONCE and connects to the address it checked: the HTTP client never asks the resolver again, so
 * a name that answers a public address to the check and 127.0.0.1 to the connection (DNS
 * rebinding) cannot reach the server's own network. The URL's host stays the Host header and the
 * TLS server name (certificates are verified against it). Redirects are not followed (they could
 * lead anywhere); a 3xx counts as a failure.
 */
export class WebhookSender {
  constructor(
    private readonly options: {
      allowPrivate: boolean;
      timeoutMs?: number;
      resolve?: HostResolver;
    },
  ) {}

  async check(rawUrl: string): Promise<AddressVerdict> {
    const url = parseTarget(rawUrl);
    if (!url) return 'invalid';
    if (this.options.allowPrivate) return 'ok';
    try {
      await this.checkedAddress(url);
      return 'ok';
    } catch (error) {
      if (error instanceof WebhookAddressRefused) return error.verdict;
      throw error;
    }
  }

  private async resolve(host: string): Promise<string[]> {
    if (this.options.resolve) return this.options.resolve(host);
    return (await lookup(host, { all: true })).map((entry) => entry.address);
  }

  /**
   * The one address a delivery connects to: the host's addresses, resolved once, each checked;
   * refused (`WebhookAddressRefused`) when any is private or local (unless allowed), or when the
   * name resolves to nothing.
   */
  private async checkedAddress(url: URL): Promise<string> {
    const host = bareHost(url);
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await this.resolve(host);
    } catch {
      throw new WebhookAddressRefused('invalid');
    }
    const usable = addresses.filter((address) => isIP(address) !== 0);
    if (usable.length === 0) throw new WebhookAddressRefused('invalid');
    if (!this.options.allowPrivate && usable.some(isPrivateAddress))
      throw new WebhookAddressRefused('private');
    return usable[0]!;
  }

  /**
   * One POST; answers the receiver's status code, or throws: `WebhookAddressRefused` before any
   * connection, else a network error or a `TimeoutError`.
   */
  async post(rawUrl: string, body: string, headers: Record<string, string>): Promise<number> {
    const url = parseTarget(rawUrl);
    if (!url) throw new WebhookAddressRefused('invalid');
    const address = await this.checkedAddress(url);
    const family = isIP(address);
    // The socket's only lookup: the checked address, whatever the name would resolve to now.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    };
    const host = bareHost(url);
    const https = url.protocol === 'https:';
    const timeoutMs = this.options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    return new Promise<number>((resolve, reject) => {
      const request = (https ? httpsRequest : httpRequest)(
        {
          method: 'POST',
          hostname: host,
          port: url.port || (https ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          headers: {
            host: url.host,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Flashbulb-Webhooks/1',
            ...headers,
          },
          lookup: pinned,
          // A connection of its own: no pooled socket made for another resolution.
          agent: false,
          ...(https && isIP(host) === 0 ? { servername: host } : {}),
        },
        (response: IncomingMessage) => {
          clearTimeout(timer);
          // The body is not needed; dropping it frees the connection.
          response.resume();
          response.on('error', () => undefined);
          resolve(response.statusCode ?? 0);
          response.destroy();
        },
      );
      const timer = setTimeout(() => {
        const timeout = new Error(`no answer within ${timeoutMs} ms`);
        timeout.name = 'TimeoutError';
        request.destroy(timeout);
      }, timeoutMs);
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.end(body);
    });
  }
}
