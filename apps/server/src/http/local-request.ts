import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

const isLoopback = (address: string | undefined): boolean => {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIPv4(v4)) return v4.split('.')[0] === '127';
  return isIPv6(address) && address === '::1';
};

/**
 * Whether the request comes from this machine itself: the socket's peer is a loopback address and
 * no proxy forwarded it (a reverse proxy on the same host connects from loopback for every visitor
 * and says so in a forwarding header). The configured trust-proxy setting is not consulted: the
 * socket is the one thing a visitor cannot write.
 */
export const isLocalRequest = (request: FastifyRequest): boolean =>
  isLoopback(request.socket.remoteAddress) &&
  FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
