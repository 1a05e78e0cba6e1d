import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorStatus, type ErrorKey } from '@flashbulb/shared';
import type { FastifyInstance } from 'fastify';
import { nok } from './envelope.ts';

/**
 * Errors Node's HTTP parser meets before Fastify has a request (a 100 KB query overflows the
 * header limit, a malformed request line, a client too slow to send its headers). Fastify's
 * default writes its own JSON; we answer the envelope like every other failure.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const key: ErrorKey =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headers_too_large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : 'invalid_request';
  const status = errorStatus(key);
  const body = JSON.stringify(nok(key));
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
