import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

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
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

export const isPrivateAddress = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
};

export type AddressVerdict = 'ok' | 'invalid' | 'private';

/** The signature header value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const signatureHeader = (secret: string, body: string, unixSeconds: number): string =>
  `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;

/**
 * POSTs webhook bodies. Every address the host name resolves to is checked (at creation and again
 * before each delivery): a private or loopback one is refused unless `allowPrivate`
 * (FLASHBULB_WEBHOOKS_ALLOW_PRIVATE, for tests and closed networks). Redirects are not followed
 * (they could lead anywhere); a 3xx counts as a failure.
 */
export class WebhookSender {
  constructor(
    private readonly options: {
      allowPrivate: boolean;
      timeoutMs?: number;
      resolve?: (host: string) => Promise<string[]>;
    },
  ) {}

  async check(rawUrl: string): Promise<AddressVerdict> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return 'invalid';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'invalid';
    if (url.username || url.password || !url.hostname) return 'invalid';
    if (this.options.allowPrivate) return 'ok';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await this.resolve(host);
    } catch {
      return 'invalid';
    }
    if (addresses.length === 0) return 'invalid';
    return addresses.some(isPrivateAddress) ? 'private' : 'ok';
  }

  private async resolve(host: string): Promise<string[]> {
    if (this.options.resolve) return this.options.resolve(host);
    return (await lookup(host, { all: true })).map((entry) => entry.address);
  }

  /** One POST; answers the receiver's status code, or throws (network error, timeout). */
  async post(url: string, body: string, headers: Record<string, string>): Promise<number> {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Flashbulb-Webhooks/1',
        ...headers,
      },
      redirect: 'manual',
      signal: AbortSignal.timeout(this.options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
    });
    // The body is not needed; reading it frees the connection.
    await response.body?.cancel().catch(() => undefined);
    return response.status;
  }
}
