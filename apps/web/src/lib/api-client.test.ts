import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API_BASE, endpoints } from '@flashbulb/shared';
import { adminUser, installFakeApi, tokens } from '../test/fake-api.ts';
import { ApiError, callApi, INTERNAL_ERROR, isApiError } from './api-client.ts';
import {
  getAccessToken,
  getSessionState,
  markSignedIn,
  resetSessionStoreForTests,
  setAccessToken,
} from './session-store.ts';

const failure = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
};

beforeEach(() => {
  resetSessionStoreForTests();
});

describe('callApi', () => {
  it('posts JSON to the endpoint path and returns the parsed result', async () => {
    const api = installFakeApi({
      '/auth/setup-status': { ok: { needs_first_admin: true, extra: 1 } },
    });
    await expect(callApi(endpoints.setupStatus, {})).resolves.toEqual({ needs_first_admin: true });
    const fetchCall = (globalThis.fetch as unknown as { mock: { calls: [string, RequestInit][] } })
      .mock.calls[0];
    expect(fetchCall?.[0]).toBe(`${API_BASE}/auth/setup-status`);
    expect(fetchCall?.[1].method).toBe('POST');
    expect(fetchCall?.[1].credentials).toBe('same-origin');
    expect(api.calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(api.calls[0]?.headers.has('authorization')).toBe(false);
  });

  it('maps a nok envelope to an ApiError with its key, field and status', async () => {
    installFakeApi({ '/auth/sign-in': { nok: 'user_name_or_password_incorrect', status: 400 } });
    const error = await failure(callApi(endpoints.signIn, { username: 'a@b.c', password: 'x' }));
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({
      messageKey: 'user_name_or_password_incorrect',
      type: 'global',
      status: 400,
    });

    installFakeApi({ '/auth/create-first-admin': { nok: 'invalid_password', field: 'password' } });
    const fieldError = await failure(
      callApi(endpoints.createFirstAdmin, { email: 'a@b.c', password: 'x' }),
    );
    expect(fieldError).toMatchObject({
      messageKey: 'invalid_password',
      type: 'field',
      field: 'password',
    });
  });

  it.each([
    ['a non-JSON body', { raw: '<html>Bad gateway</html>', status: 502 }],
    ['JSON of another shape', { raw: '{"hello":"world"}', status: 200 }],
    [
      'an ok envelope with a non-2xx status',
      { raw: '{"status":"ok","result":{"needs_first_admin":true}}', status: 500 },
    ],
    ['a result that breaks the contract', { ok: { needs_first_admin: 'yes' } }],
    ['a network failure', { networkError: true as const }],
  ])('maps %s to Internal Error', async (_label, reply) => {
    installFakeApi({ '/auth/setup-status': reply });
    const error = await failure(callApi(endpoints.setupStatus, {}));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).messageKey).toBe(INTERNAL_ERROR);
  });

  it('lets an aborted request pass as an abort, not as an error to show', async () => {
    installFakeApi({ '/auth/setup-status': { ok: { needs_first_admin: false } } });
    const controller = new AbortController();
    controller.abort();
    // The fake ignores the signal, so emulate the browser: fetch rejects with AbortError.
    globalThis.fetch = () => Promise.reject(new DOMException('aborted', 'AbortError'));
    const error = await failure(callApi(endpoints.setupStatus, {}, { signal: controller.signal }));
    expect(isApiError(error)).toBe(false);
    expect((error as Error).name).toBe('AbortError');
  });

  it('sends the access token on owner calls', async () => {
    const api = installFakeApi({ '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser } });
    setAccessToken('token-123');
    await callApi(endpoints.myInfo, {});
    expect(api.calls[0]?.headers.get('authorization')).toBe('Bearer token-123');
  });

  /**
   * A console whose access token is stale: my-info answers 401 to any token but the one the
   * refresh gives ("fresh").
   */
  const staleTokenApi = () => {
    const api = installFakeApi({
      '/flashbulb-owner/user/my-info/retrieve': (_body, call) =>
        call.headers.get('authorization') === 'Bearer fresh'
          ? { ok: adminUser }
          : { nok: 'unauthorized_user', status: 401 },
      '/auth/refresh': { ok: tokens('fresh') },
    });
    setAccessToken('stale');
    return api;
  };

  it('refreshes once on 401 and retries with the new token', async () => {
    const api = staleTokenApi();
    await expect(callApi(endpoints.myInfo, {})).resolves.toMatchObject({
      email: 'admin@example.com',
    });
    expect(api.callsTo('/auth/refresh')).toHaveLength(1);
    expect(api.callsTo('/auth/refresh')[0]?.body).toEqual({});
    expect(getAccessToken()).toBe('fresh');
  });

  it('signs out when the session cannot be refreshed after a 401', async () => {
    const api = installFakeApi({
      '/flashbulb-owner/user/my-info/retrieve': { nok: 'unauthorized_user', status: 401 },
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/sign-out': { ok: {} },
    });
    setAccessToken('stale');
    markSignedIn(adminUser);
    expect(localStorage.getItem('role')).toBe('1');

    const error = await failure(callApi(endpoints.myInfo, {}));
    expect(error).toMatchObject({ messageKey: 'unauthorized_user' });
    expect(getSessionState()).toMatchObject({
      status: 'signedOut',
      notice: 'unauthorized_user',
      user: null,
    });
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('role')).toBeNull();
    expect(api.callsTo('/flashbulb-owner/user/my-info/retrieve')).toHaveLength(1);
    // Sent in the background once the identity endpoints are loaded (not in guest first loads).
    await vi.waitFor(() => expect(api.callsTo('/auth/sign-out')).toHaveLength(1));
  });

  it('keeps the session when the refresh after a 401 gets no answer (offline, or the page being left)', async () => {
    const api = installFakeApi({
      '/flashbulb-owner/user/my-info/retrieve': { nok: 'unauthorized_user', status: 401 },
      '/auth/refresh': { networkError: true },
      '/auth/sign-out': { ok: {} },
    });
    setAccessToken('stale');
    markSignedIn(adminUser);

    const error = await failure(callApi(endpoints.myInfo, {}));
    expect(error).toMatchObject({ messageKey: INTERNAL_ERROR, status: undefined });
    expect(getSessionState()).toMatchObject({ status: 'signedIn', notice: null });
    expect(localStorage.getItem('role')).toBe('1');
    // Another call may try again: nothing ended the session, here or on the server.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(api.callsTo('/auth/sign-out')).toHaveLength(0);
  });

  it('does not refresh for a 401 before sign-in', async () => {
    const api = installFakeApi({
      '/auth/verify-software-token': { nok: 'unauthorized_user', status: 401 },
      '/auth/refresh': { ok: tokens() },
    });
    const error = await failure(
      callApi(endpoints.verifySoftwareToken, { session: 's', code: '123456' }),
    );
    expect(error).toMatchObject({ messageKey: 'unauthorized_user' });
    expect(api.callsTo('/auth/refresh')).toHaveLength(0);
  });

  it('shares one refresh between concurrent 401s (refresh tokens are single use)', async () => {
    const api = staleTokenApi();
    await Promise.all([callApi(endpoints.myInfo, {}), callApi(endpoints.myInfo, {})]);
    expect(api.callsTo('/auth/refresh')).toHaveLength(1);
  });
});
