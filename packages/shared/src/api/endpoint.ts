import type { z } from 'zod';
import type { ErrorKey } from '../errors.ts';
import { hardenInput } from './input-rules.ts';

/**
 * Who may call an endpoint.
 * - `none`: anybody (identity calls, health).
 * - `owner`: a signed-in user: `Authorization: Bearer <access token>` or `Authorization: <API key>`.
 * - `owner_optional`: like owner, but the call also works without (it then relies on a body field,
 *   e.g. a sign-in `session`).
 * - `key`: public twin; `key_type` and `key_value` travel in the body.
 */
export type AuthKind = 'none' | 'owner' | 'owner_optional' | 'key';

export interface Endpoint<
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends AuthKind = AuthKind,
> {
  /** Path below `/api/v1`, e.g. `/auth/sign-in`. */
  readonly path: string;
  readonly auth: A;
  /** One line for the API docs. */
  readonly summary: string;
  readonly tag: string;
  readonly body: B;
  readonly result: R;
  /** The message keys this call may answer besides validation and `Internal Error`. */
  readonly errors: readonly ErrorKey[];
  /** Identity calls are rate limited per client address. */
  readonly rateLimited?: boolean;
}

/**
 * Declares an endpoint. Its body gets the input rule of `input-rules.ts` (safe text, bounded
 * strings, int4 integers) on every field, so a new endpoint or field needs nothing more.
 */
export const defineEndpoint = <B extends z.ZodType, R extends z.ZodType, A extends AuthKind>(
  endpoint: Endpoint<B, R, A>,
): Endpoint<B, R, A> => ({ ...endpoint, body: hardenInput(endpoint.body) });

export type BodyOf<E> = E extends Endpoint<infer B, z.ZodType, AuthKind> ? z.input<B> : never;
export type ParsedBodyOf<E> =
  E extends Endpoint<infer B, z.ZodType, AuthKind> ? z.output<B> : never;
export type ResultOf<E> = E extends Endpoint<z.ZodType, infer R, AuthKind> ? z.output<R> : never;

export const API_BASE = '/api/v1';
export const PRODUCT = 'flashbulb';
export const OWNER_PREFIX = `/${PRODUCT}-owner`;
