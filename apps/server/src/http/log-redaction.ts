import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry keys: album links (`pId`, `pvId`, `eId`, `attId`, `attOrgId`,
 * `attendeeId`, `privateId`, `mId`), the live stream's `key_value`, one-time links' `token`, and
 * the signatures of signed storage and media URLs (`signature`, `s`; ADR 0006), the kiosk's display
 * token (`display`), album-download tickets (`ticket`) and the lead gate's `lead_token`.
 * Request lines are logged with their values replaced, so no key reaches a log.
 */
const SECRET_QUERY_PARAMS = [
  'key_value',
  'pId',
  'pvId',
  'eId',
  'attId',
  'attOrgId',
  'attendeeId',
  'privateId',
  'mId',
  'token',
  'signature',
  's',
  'display',
  'ticket',
  'lead_token',
];

const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_QUERY_PARAMS.join('|')})=)[^&#]*`, 'gi');

export const redactUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[redacted]');

/** pino's request serializer, with the URL redacted (headers are not logged at all). */
export const requestLogSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket.remotePort,
});
