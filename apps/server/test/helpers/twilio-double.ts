import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TWILIO_SID = 'AC0123456789abcdef0123456789abcdef';
export const TWILIO_TOKEN = 'twilio-auth-token-for-tests';

export interface TwilioRequest {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

type Reply = (form: Record<string, string>) => { status: number; body: object };

/**
 * Twilio's Messages resource as documented (`POST /2010-04-01/Accounts/{sid}/Messages.json`,
 * basic auth, form body; 201 with the message, 4xx/5xx with `{code, message, more_info, status}`).
 * `answer` decides the reply per request. With `echoCredentials`, a wrong password is quoted
 * back in the 401 message, as careless providers do: what we store and log must not repeat it.
 */
export const startTwilioDouble = async (
  options: { sid?: string; token?: string; echoCredentials?: boolean } = {},
) => {
  const sid = options.sid ?? TWILIO_SID;
  const token = options.token ?? TWILIO_TOKEN;
  const received: TwilioRequest[] = [];
  let count = 0;
  const created: Reply = (form) => ({
    status: 201,
    body: { sid: `SM${String(++count).padStart(32, '0')}`, status: 'queued', to: form.To },
  });
  let reply: Reply = created;
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const form = Object.fromEntries(new URLSearchParams(text));
      received.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        form,
      });
      const expectedAuth = `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
      const given = Buffer.from(
        (request.headers.authorization ?? '').replace(/^Basic /, ''),
        'base64',
      ).toString('utf8');
      const answer =
        request.headers.authorization !== expectedAuth
          ? {
              status: 401,
              body: {
                code: 20003,
                message: options.echoCredentials
                  ? `Authenticate: credentials ${given} were refused`
                  : 'Authenticate',
                status: 401,
              },
            }
          : request.url !== `/2010-04-01/Accounts/${sid}/Messages.json` || request.method !== 'POST'
            ? { status: 404, body: { code: 20404, message: 'Not found', status: 404 } }
            : !form.To || !form.Body || (!form.From && !form.MessagingServiceSid)
              ? {
                  status: 400,
                  body: { code: 21604, message: "A 'To' phone number is required.", status: 400 },
                }
              : reply(form);
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(next: Reply) {
      reply = next;
    },
    /** Back to accepting every message with a fresh sid. */
    reset() {
      received.length = 0;
      reply = created;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
export type TwilioDouble = Awaited<ReturnType<typeof startTwilioDouble>>;
