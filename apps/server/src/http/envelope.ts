import {
  errorStatus,
  errorText,
  isErrorKey,
  type ErrorKey,
  type NokEnvelope,
} from '@flashbulb/shared';
import type { FastifyReply } from 'fastify';

export const nok = (key: ErrorKey, field?: string): NokEnvelope => ({
  status: 'nok',
  error: {
    type: field ? 'field' : 'global',
    message_key: key,
    message: errorText(key),
    ...(field ? { field } : {}),
  },
});

export const sendNok = (reply: FastifyReply, key: ErrorKey, field?: string): FastifyReply =>
  reply.code(errorStatus(key)).type('application/json; charset=utf-8').send(nok(key, field));

/** A schema message is a catalogue key when we wrote it; zod's own texts become `invalid_value`. */
export const keyFromMessage = (message: string | undefined): ErrorKey =>
  message && isErrorKey(message) ? message : 'invalid_value';
