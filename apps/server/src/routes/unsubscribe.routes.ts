import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import { escapeHtml } from '../lib/escape-html.ts';
import {
  UNSUBSCRIBE_PATH,
  type NotificationService,
} from '../services/messaging/notification.service.ts';

const STYLE = `body{margin:0;background:#f6f6f4;color:#222;font-family:system-ui,sans-serif}
main{max-width:480px;margin:15vh auto 0;padding:24px;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem;margin:0 0 12px}p{line-height:1.5}
button{font:inherit;padding:12px 20px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;cursor:pointer;min-height:44px}`;

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>` +
  `<style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

const send = (reply: FastifyReply, status: number, html: string) =>
  reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    )
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(html);

const invalidPage = page(
  'Link not valid',
  '<p>This unsubscribe link is not valid. Use the link from the most recent message.</p>',
);

const tokenOf = (query: unknown): string | null => {
  const token = (query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' && token.length > 0 && token.length <= 1000 ? token : null;
};

/**
 * The unsubscribe link of every notification.
 * - `GET /api/unsubscribe?token=…`: a page naming the event with one button (a GET never
 *   unsubscribes: mail scanners open links);
 * - `POST /api/unsubscribe?token=…`: records the unsubscribe — the page's button, and the
 *   one-click POST of `List-Unsubscribe-Post` (RFC 8058, body `List-Unsubscribe=One-Click`,
 *   whatever its content type) — and answers a confirmation page.
 * A token not signed by this server answers 400 with a page saying so, and changes nothing.
 */
export const registerUnsubscribeRoutes = async (
  app: FastifyInstance,
  notifications: NotificationService,
): Promise<void> => {
  await app.register((scope, _options, done) => {
    // Mail providers post a form body; the page posts one too. Nothing in it is needed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_r, _b, next) =>
      next(null, null),
    );
    scope.get(UNSUBSCRIBE_PATH, { schema: { hide: true } }, async (request, reply) => {
      const token = tokenOf(request.query);
      try {
        if (!token) throw new AppError('unsubscribe_link_invalid', 'token');
        const { eventTitle, recipient } = await notifications.describe(token);
        return send(
          reply,
          200,
          page(
            'Unsubscribe',
            `<p>Stop messages from <strong>${escapeHtml(eventTitle)}</strong> to ` +
              `<strong>${escapeHtml(recipient)}</strong>?</p>` +
              `<form method="post" action="${UNSUBSCRIBE_PATH}?token=${escapeHtml(encodeURIComponent(token))}">` +
              `<button type="submit">Unsubscribe</button></form>`,
          ),
        );
      } catch (error) {
        if (error instanceof AppError) return send(reply, 400, invalidPage);
        throw error;
      }
    });
    scope.post(UNSUBSCRIBE_PATH, { schema: { hide: true } }, async (request, reply) => {
      const token = tokenOf(request.query);
      try {
        if (!token) throw new AppError('unsubscribe_link_invalid', 'token');
        const { eventTitle, recipient } = await notifications.unsubscribe(token);
        return send(
          reply,
          200,
          page(
            'You are unsubscribed',
            `<p><strong>${escapeHtml(recipient)}</strong> will get no further messages from ` +
              `<strong>${escapeHtml(eventTitle)}</strong> (receipts of purchases excepted).</p>`,
          ),
        );
      } catch (error) {
        if (error instanceof AppError) return send(reply, 400, invalidPage);
        throw error;
      }
    });
    done();
  });
};
