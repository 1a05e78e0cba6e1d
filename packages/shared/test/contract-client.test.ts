import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AUTH_COOKIE_PATH,
  ContractError,
  createContractClient,
  endpoints,
  INTERNAL_ERROR_KEY,
  photoStreamUrlAt,
} from '../src/index.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A tiny HTTP server: records each request and answers with the next queued reply. */
let server: Server;
let baseUrl: string;
let received: Received[] = [];
let reply: (res: ServerResponse) => void = (res) => res.end();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      reply(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
});

const json = (status: number, payload: unknown) => (res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
};

const failure = async (promise: Promise<unknown>): Promise<ContractError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return error as ContractError;
  }
  throw new Error('expected the call to fail');
};

describe('contract client', () => {
  it('posts the body as JSON to /api/v1 + the endpoint path and returns the parsed result', async () => {
    // An unknown field in the result is dropped by the result schema, as the contract says.
    reply = json(200, { status: 'ok', result: { needs_first_admin: true, extra: 1 } });
    const client = createContractClient({
      baseUrl: `${baseUrl}/`,
      headers: { 'x-agent': 'robot' },
    });

    const result = await client.call(endpoints.setupStatus, {});

    expect(result).toEqual({ needs_first_admin: true });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/auth/setup-status',
      body: '{}',
    });
    expect(received[0]?.headers['content-type']).toBe('application/json');
    expect(received[0]?.headers['x-agent']).toBe('robot');
    expect(received[0]?.headers.authorization).toBeUndefined();
    expect(client.urlOf(endpoints.setupStatus)).toBe(`${baseUrl}/api/v1/auth/setup-status`);
  });

  it('sends the authorization of the call and the typed body unchanged', async () => {
    reply = json(200, { status: 'ok', result: { email: 'boss@example.com' } });
    const client = createContractClient({ baseUrl });

    const result = await client.call(
      endpoints.createFirstAdmin,
      { email: 'boss@example.com', password: 'a long pass phrase' },
      { authorization: 'Bearer t0k3n' },
    );

    expect(result).toEqual({ email: 'boss@example.com' });
    expect(received[0]?.url).toBe('/api/v1/auth/create-first-admin');
    expect(received[0]?.headers.authorization).toBe('Bearer t0k3n');
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({
      email: 'boss@example.com',
      password: 'a long pass phrase',
    });
  });

  it('throws a nok envelope as a ContractError with its status, key and field', async () => {
    reply = json(400, {
      status: 'nok',
      error: {
        type: 'field',
        message_key: 'invalid_password',
        message: 'Choose a password of at least 8 characters that is not a common password',
        field: 'password',
      },
    });
    const client = createContractClient({ baseUrl });

    const error = await failure(
      client.call(endpoints.createFirstAdmin, { email: 'a@b.c', password: 'x' }),
    );

    expect(error).toMatchObject({
      kind: 'nok',
      status: 400,
      messageKey: 'invalid_password',
      type: 'field',
      field: 'password',
      path: '/auth/create-first-admin',
      serverMessage: 'Choose a password of at least 8 characters that is not a common password',
    });
    expect(error.message).toBe(
      'POST /api/v1/auth/create-first-admin: HTTP 400 invalid_password (field password)',
    );
  });

  it('says clearly that a 502 HTML page is not a JSON envelope', async () => {
    reply = (res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>\n  <body>Bad gateway</body>\n</html>');
    };
    const client = createContractClient({ baseUrl });

    const error = await failure(client.call(endpoints.setupStatus, {}));

    expect(error).toMatchObject({
      kind: 'bad_reply',
      status: 502,
      messageKey: INTERNAL_ERROR_KEY,
      field: undefined,
    });
    expect(error.message).toBe(
      'POST /api/v1/auth/setup-status: HTTP 502 without a JSON envelope (text/html: "<html> <body>Bad gateway</body> </html>")',
    );
  });

  it.each([
    ['JSON of another shape', json(200, { hello: 'world' })],
    [
      'an ok envelope with an error status',
      json(500, { status: 'ok', result: { needs_first_admin: true } }),
    ],
    [
      'a result the contract refuses',
      json(200, { status: 'ok', result: { needs_first_admin: 'yes' } }),
    ],
  ])('refuses %s as a bad reply', async (_what, answer) => {
    reply = answer;
    const error = await failure(createContractClient({ baseUrl }).call(endpoints.setupStatus, {}));
    expect(error.kind).toBe('bad_reply');
    expect(error.messageKey).toBe(INTERNAL_ERROR_KEY);
  });

  it('reports a refused connection as a network error without a status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await failure(
      createContractClient({ baseUrl: `http://127.0.0.1:${port}` }).call(endpoints.setupStatus, {}),
    );

    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/^POST \/api\/v1\/auth\/setup-status: no reply \(/);
  });

  it('lets an abort pass through as the AbortError it is', async () => {
    reply = () => undefined; // never answers
    const controller = new AbortController();
    const pending = createContractClient({ baseUrl }).call(
      endpoints.setupStatus,
      {},
      {
        signal: controller.signal,
      },
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(pending).rejects.not.toBeInstanceOf(ContractError);
  });

  it('uses the fetch it is given', async () => {
    const seen: string[] = [];
    const client = createContractClient({
      baseUrl: '',
      fetch: (input) => {
        seen.push(input as string);
        return Promise.resolve(
          Response.json({ status: 'ok', result: { needs_first_admin: false } }),
        );
      },
    });
    await expect(client.call(endpoints.setupStatus, {})).resolves.toEqual({
      needs_first_admin: false,
    });
    expect(seen).toEqual(['/api/v1/auth/setup-status']);
  });
});

describe('non-contract paths', () => {
  it('names the photo stream URL with the key encoded, and the refresh cookie path', () => {
    expect(photoStreamUrlAt('http://h:1/', { key_type: 'private', key_value: 'a/b c' })).toBe(
      'http://h:1/api/v1/photo/stream?key_type=private&key_value=a%2Fb+c',
    );
    expect(photoStreamUrlAt('', { key_type: 'public', key_value: 'pub' })).toBe(
      '/api/v1/photo/stream?key_type=public&key_value=pub',
    );
    expect(AUTH_COOKIE_PATH).toBe('/api/v1/auth');
  });
});
