import { vi } from 'vitest';
import { API_BASE } from '@flashbulb/shared';

/** One recorded call to the fake server. */
export interface RecordedCall {
  readonly path: string;
  readonly body: unknown;
  readonly headers: Headers;
}

export type FakeReply =
  | { readonly ok: unknown }
  | { readonly nok: string; readonly status?: number; readonly field?: string }
  | { readonly raw: string; readonly status: number; readonly headers?: Record<string, string> }
  | { readonly networkError: true };

type Handler = (body: unknown, call: RecordedCall) => FakeReply;

/**
 * Fakes the HTTP boundary (global fetch) with per-path handlers, so components run through the real
 * API client. Handlers are queues: each call takes the next reply; the last one repeats.
 */
export const installFakeApi = (routes: Record<string, FakeReply | FakeReply[] | Handler>) => {
  const calls: RecordedCall[] = [];
  const queues = new Map(Object.entries(routes));

  const respond = (input: RequestInfo | URL, init?: RequestInit): Response => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.startsWith(API_BASE) ? url.slice(API_BASE.length) : url;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: RecordedCall = { path, body, headers: new Headers(init?.headers) };
    calls.push(call);

    const route = queues.get(path);
    if (route === undefined) throw new Error(`fake API: no route for ${path}`);
    let reply: FakeReply;
    if (typeof route === 'function') reply = route(body, call);
    else if (Array.isArray(route)) {
      const next = route.length > 1 ? route.shift() : route[0];
      if (!next) throw new Error(`fake API: empty reply queue for ${path}`);
      reply = next;
    } else reply = route;

    if ('networkError' in reply) throw new TypeError('Failed to fetch');
    if ('raw' in reply)
      return new Response(reply.raw, { status: reply.status, headers: reply.headers });
    if ('ok' in reply) return Response.json({ status: 'ok', result: reply.ok }, { status: 200 });
    return Response.json(
      {
        status: 'nok',
        error: {
          type: reply.field ? 'field' : 'global',
          message_key: reply.nok,
          message: reply.nok,
          ...(reply.field ? { field: reply.field } : {}),
        },
      },
      { status: reply.status ?? 400 },
    );
  };
  // Like fetch, failures (the thrown network error) arrive as a rejected promise.
  const fetchMock = vi.fn(
    (input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((resolve) => resolve(respond(input, init))),
  );
  vi.stubGlobal('fetch', fetchMock);

  return {
    calls,
    callsTo: (path: string) => calls.filter((call) => call.path === path),
  };
};

export const tokens = (accessToken = 'access-1') => ({
  authentication_result: {
    access_token: accessToken,
    id_token: 'id',
    refresh_token: 'refresh',
    expires_in: 900,
    token_type: 'Bearer' as const,
  },
});

export const adminUser = {
  id: 1,
  email: 'admin@example.com',
  role: 1 as const,
  organisation_id: null,
  organisation_name: null,
  mfa_enabled: true,
  mfa_exempt: false,
  status: 'CONFIRMED' as const,
  disabled: false,
  created_date: '2026-11-21T00:00:00.000Z',
};
