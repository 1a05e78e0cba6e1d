import { API_BASE, type BodyOf, type Endpoint, type ResultOf } from '../api/endpoint.ts';
import { nokEnvelopeSchema, type ApiError as EnvelopeError } from '../api/envelope.ts';

/**
 * The typed client of the contract: one `call(endpoint, body)` per endpoint of `endpoints`, for
 * every program that talks to the API (the robot CLI, the e2e journeys, the print agent, the web
 * app's `lib/api-client.ts`). It builds the URL from the endpoint (never a literal path), posts the
 * body as JSON, and returns the result parsed by the endpoint's result schema — or throws a
 * `ContractError`.
 */

/** The message key of every failure that is not a nok envelope (spec: owner-console §8). */
export const INTERNAL_ERROR_KEY = 'Internal Error';

/** The path of an endpoint below the server's origin, e.g. `/api/v1/auth/sign-in`. */
export const apiPath = (endpoint: Pick<Endpoint, 'path'>): string => `${API_BASE}${endpoint.path}`;

/**
 * Why a call failed:
 * - `nok`: the server answered a nok envelope (`messageKey`, `field`, `status` are the server's);
 * - `network`: no reply (connection refused, reset, DNS); `status` is undefined;
 * - `bad_reply`: a reply that is not the contract's (not JSON, another shape, an ok envelope with
 *   an error status, or a result its schema refuses), e.g. a proxy's HTML 502 page.
 */
export type ContractErrorKind = 'nok' | 'network' | 'bad_reply';

export class ContractError extends Error {
  readonly kind: ContractErrorKind;
  /** HTTP status of the reply; undefined when there was none. */
  readonly status: number | undefined;
  /** The envelope's `message_key`, or `Internal Error` when the reply was not a nok envelope. */
  readonly messageKey: string;
  readonly type: 'global' | 'field';
  /** The offending field of a field error. */
  readonly field: string | undefined;
  /** The envelope's English text (nok replies only). */
  readonly serverMessage: string | undefined;
  /** The endpoint's path below `/api/v1`. */
  readonly path: string;

  constructor(
    message: string,
    details: {
      kind: ContractErrorKind;
      path: string;
      status?: number;
      envelope?: EnvelopeError;
      cause?: unknown;
    },
  ) {
    super(message, { cause: details.cause });
    this.name = 'ContractError';
    this.kind = details.kind;
    this.path = details.path;
    this.status = details.status;
    this.messageKey = details.envelope?.message_key ?? INTERNAL_ERROR_KEY;
    this.type = details.envelope?.type ?? 'global';
    this.field = details.envelope?.field;
    this.serverMessage = details.envelope?.message;
  }
}

export const isContractError = (error: unknown): error is ContractError =>
  error instanceof ContractError;

export interface ContractClientOptions {
  /** Where the API is served: an origin (`http://127.0.0.1:8080`, a trailing `/` is ignored), or `''` for the page's own origin. */
  readonly baseUrl: string;
  /** Default: the global `fetch`, looked up at each call (tests may replace it). */
  readonly fetch?: typeof fetch;
  /** Headers sent with every call (an `authorization` given to a call wins). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch `credentials` mode; the browser app sends its refresh cookie with `same-origin`. */
  readonly credentials?: RequestInit['credentials'];
}

export interface ContractCallOptions {
  /** The whole `Authorization` value: `Bearer <access token>` or a user API key. */
  readonly authorization?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

export interface ContractClient {
  /** The origin calls go to, without a trailing `/`. */
  readonly baseUrl: string;
  /** The absolute (or, with `baseUrl: ''`, root-relative) URL of an endpoint. */
  urlOf(endpoint: Pick<Endpoint, 'path'>): string;
  call<E extends Endpoint>(
    endpoint: E,
    body: BodyOf<E>,
    options?: ContractCallOptions,
  ): Promise<ResultOf<E>>;
}

const isAbort = (error: unknown, signal: AbortSignal | undefined): boolean =>
  signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');

/** The start of a reply body for an error message: one line, at most 120 characters. */
const excerpt = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

export const createContractClient = (options: ContractClientOptions): ContractClient => {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const urlOf = (endpoint: Pick<Endpoint, 'path'>) => `${baseUrl}${apiPath(endpoint)}`;

  const call = async <E extends Endpoint>(
    endpoint: E,
    body: BodyOf<E>,
    callOptions: ContractCallOptions = {},
  ): Promise<ResultOf<E>> => {
    const doFetch = options.fetch ?? globalThis.fetch;
    const where = `POST ${apiPath(endpoint)}`;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      ...options.headers,
      ...callOptions.headers,
    };
    if (callOptions.authorization !== undefined) headers.Authorization = callOptions.authorization;

    let response: Response;
    let text: string;
    try {
      response = await doFetch(urlOf(endpoint), {
        method: 'POST',
        headers,
        body: JSON.stringify(body ?? {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      });
      text = await response.text();
    } catch (error) {
      // An abort is the caller's decision, not a failure: it passes through unchanged.
      if (isAbort(error, callOptions.signal)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ContractError(`${where}: no reply (${reason})`, {
        kind: 'network',
        path: endpoint.path,
        cause: error,
      });
    }
    const status = response.status;

    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch (error) {
      const type = response.headers.get('content-type') ?? 'no content type';
      throw new ContractError(
        `${where}: HTTP ${status} without a JSON envelope (${type}: "${excerpt(text)}")`,
        { kind: 'bad_reply', path: endpoint.path, status, cause: error },
      );
    }

    const nok = nokEnvelopeSchema.safeParse(payload);
    if (nok.success) {
      const { message_key, field } = nok.data.error;
      throw new ContractError(
        `${where}: HTTP ${status} ${message_key}${field ? ` (field ${field})` : ''}`,
        { kind: 'nok', path: endpoint.path, status, envelope: nok.data.error },
      );
    }
    if (!response.ok || !isObject(payload) || payload.status !== 'ok' || !('result' in payload)) {
      throw new ContractError(
        `${where}: HTTP ${status} with a reply that is not the contract's envelope: ${excerpt(text)}`,
        { kind: 'bad_reply', path: endpoint.path, status },
      );
    }
    const parsed = endpoint.result.safeParse(payload.result);
    if (!parsed.success) {
      throw new ContractError(
        `${where}: the result does not match the contract: ${excerpt(parsed.error.message)}`,
        { kind: 'bad_reply', path: endpoint.path, status, cause: parsed.error },
      );
    }
    return parsed.data as ResultOf<E>;
  };

  return { baseUrl, urlOf, call };
};
