import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';
import { keyFromMessage, sendNok } from './envelope.ts';

/**
 * Every failure leaves as the envelope with a catalogue key. Unknown failures are logged with
 * their stack and answered 500 `Internal Error` — never a stack trace or SQL to the client.
 */
export const registerErrorHandling = (app: FastifyInstance): void => {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) return sendNok(reply, error.key, error.field);

    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') || undefined;
      const key = keyFromMessage(first?.message);
      return sendNok(reply, field ? key : key === 'invalid_value' ? 'invalid_request' : key, field);
    }

    const fastifyError = error as FastifyError;
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendNok(reply, 'body_too_large');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendNok(reply, 'invalid_request');
      default:
        break;
    }
    if (fastifyError.statusCode === 429) return sendNok(reply, 'rate_limited');
    // A plugin's own client error (e.g. @fastify/static refusing `../` with 403, a missing file
    // with 404) is the client's fault: answer it in the envelope, never as a 500.
    if (fastifyError.statusCode === 403 || fastifyError.statusCode === 404) {
      return sendNok(reply, 'not_found');
    }
    if (fastifyError.statusCode === 413) return sendNok(reply, 'body_too_large');
    if (fastifyError.statusCode === 431) return sendNok(reply, 'headers_too_large');
    if (
      error instanceof SyntaxError ||
      (fastifyError.statusCode !== undefined &&
        fastifyError.statusCode >= 400 &&
        fastifyError.statusCode < 500 &&
        !fastifyError.code?.startsWith('FST_ERR_RESPONSE'))
    ) {
      return sendNok(reply, 'invalid_request');
    }

    request.log.error({ err: error }, 'unhandled error');
    return sendNok(reply, 'Internal Error');
  });
};
