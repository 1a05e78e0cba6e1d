import {
  createContractClient,
  isContractError,
  type BodyOf,
  type Endpoint,
  type ResultOf,
} from '@flashbulb/shared';
import { getAccessToken, markSignedOut, setAccessToken } from './session-store.ts';

/** The message key the spec uses for every failure that is not a nok reply (owner-console §8). */
export const INTERNAL_ERROR = 'Internal Error';
export const UNAUTHORIZED = 'unauthorized_user';

/** A failed call: the server's message key (or `Internal Error`), and the field for field errors. */
export class ApiError extends Error {
  readonly messageKey: string;
  readonly type: 'global' | 'field';
  readonly field: string | undefined;
  /** HTTP status, when there was a reply. */
  readonly status: number | undefined;

  constructor(
    messageKey: string,
    options: {
      type?: 'global' | 'field';
      field?: string;
      status?: number;
      message?: string;
      cause?: unknown;
    } = {},
  ) {
    super(options.message ?? messageKey, { cause: options.cause });
    this.name = 'ApiError';
    this.messageKey = messageKey;
    this.type = options.type ?? 'global';
    this.field = options.field;
    this.status = options.status;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The key to show for any thrown value: the server's key, or `Internal Error` for anything else. */
export const errorKeyOf = (error: unknown): string =>
  isApiError(error) ? error.messageKey : INTERNAL_ERROR;

/** Aborted requests are not failures to report (owner-console §8): callers let them pass silently. */
export const isAbortError = (error: unknown): boolean =>
  error instanceof DOMException
    ? error.name === 'AbortError'
    : error instanceof Error && error.name === 'AbortError';

const isUnauthorized = (error: unknown): boolean =>
  isApiError(error) && error.messageKey === UNAUTHORIZED && error.status === 401;

/**
 * A call that got no answer: aborted, or no reply at all (status 0: offline, or the page being
 * left, whose requests the browser cancels). It says nothing about the session, so it never ends
 * one (owner-console §8: such failures are ignored).
 */
export const isNoReply = (error: unknown): boolean =>
  isAbortError(error) || (isApiError(error) && error.status === undefined);

export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** The shared contract client on this origin; it sends the refresh cookie to the identity calls. */
const contract = createContractClient({ baseUrl: '', credentials: 'same-origin' });

/** One HTTP round trip; maps every outcome to a parsed result or an ApiError (aborts pass as they are). */
const send = async <E extends Endpoint>(
  endpoint: E,
  body: BodyOf<E>,
  token: string | null,
  options: CallOptions,
): Promise<ResultOf<E>> => {
  try {
    return await contract.call(endpoint, body, {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (!isContractError(error)) throw error;
    if (error.kind === 'nok') {
      throw new ApiError(error.messageKey, {
        type: error.type,
        field: error.field,
        message: error.serverMessage,
        status: error.status,
      });
    }
    // No reply, or one that is not the contract's: the spec's `Internal Error`.
    throw new ApiError(INTERNAL_ERROR, { cause: error, status: error.status });
  }
};

/**
 * The identity endpoints, loaded when a session needs them: guest pages never sign in, and the
 * identity contract (password rules, user schemas) would otherwise ride in the album's first load
 *. The console has them loaded already; there the import resolves at once.
 */
const identityCalls = () => import('@flashbulb/shared/api/identity/auth');
const SIGN_OUT_PATH = '/auth/sign-out';

let refreshing: Promise<string | null> | null = null;

/**
 * Trade the httpOnly refresh cookie for a new access token: the token, or null when the server
 * refused (the session is over). A refresh that got no answer (`isNoReply`) rejects: the session
 * may well be alive. Concurrent callers share one request: refresh tokens are single use, so two
 * parallel refreshes would make the second one fail.
 */
export const refreshAccessToken = (): Promise<string | null> => {
  refreshing ??= identityCalls()
    .then(({ refresh }) => send(refresh, {}, null, {}))
    .then(
      (result) => {
        setAccessToken(result.authentication_result.access_token);
        return result.authentication_result.access_token;
      },
      (error: unknown) => {
        if (isNoReply(error)) throw error;
        return null;
      },
    )
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
};

/** The session is gone: tell the server (clears the cookie), forget it here; the app then shows `/`. */
const expireSession = (): void => {
  identityCalls()
    .then(({ signOut }) => send(signOut, {}, null, {}))
    .catch(() => undefined);
  markSignedOut(UNAUTHORIZED);
};

/**
 * Call an endpoint of the shared contract (the shared contract client builds the URL).
 * Owner calls carry the access token; a 401 after sign-in refreshes the token once, then signs out.
 */
export const callApi = async <E extends Endpoint>(
  endpoint: E,
  body: BodyOf<E>,
  options: CallOptions = {},
): Promise<ResultOf<E>> => {
  const usesToken = endpoint.auth === 'owner' || endpoint.auth === 'owner_optional';
  const token = usesToken ? getAccessToken() : null;
  if (endpoint.auth === 'owner' && !token) {
    // Without a session there is nothing to ask; spec §7: the user goes back to the site root.
    expireSession();
    throw new ApiError(UNAUTHORIZED, { status: 401 });
  }
  try {
    return await send(endpoint, body, token, options);
  } catch (error) {
    // Sign-out must never loop back into signing out.
    if (!token || !isUnauthorized(error) || endpoint.path === SIGN_OUT_PATH) throw error;
  }
  // No answer to the refresh: this call failed, the session did not end.
  const fresh = await refreshAccessToken();
  if (fresh) {
    try {
      return await send(endpoint, body, fresh, options);
    } catch (error) {
      if (!isUnauthorized(error)) throw error;
    }
  }
  expireSession();
  throw new ApiError(UNAUTHORIZED, { status: 401 });
};
