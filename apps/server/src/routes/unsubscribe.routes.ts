import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import { LANGUAGE_VARY, requestLanguage } from '../http/guest-language.ts';
import { contentSecurityPolicy, type Html, sendPage } from '../pages/page.ts';
import {
  unsubscribeAskPage,
  unsubscribeDonePage,
  unsubscribeInvalidPage,
} from '../pages/unsubscribe.ts';
import {
  UNSUBSCRIBE_PATH,
  type NotificationService,
} from '../services/messaging/notification.service.ts';

const send = (reply: FastifyReply, status: number, page: Html) =>
  sendPage(reply, page, {
    status,
    vary: LANGUAGE_VARY,
    csp: contentSecurityPolicy(["style-src 'unsafe-inline'", "form-action 'self'"]),
    cacheControl: 'no-store',
    referrerPolicy: 'no-referrer',
  });

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
      const language = requestLanguage(request);
      try {
        if (!token) throw new AppError('unsubscribe_link_invalid', 'token');
        const { eventTitle, recipient } = await notifications.describe(token);
        return send(
          reply,
          200,
          unsubscribeAskPage({
            eventTitle,
            recipient,
            action: `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`,
            language,
          }),
        );
      } catch (error) {
        if (error instanceof AppError) return send(reply, 400, unsubscribeInvalidPage(language));
        throw error;
      }
    });
    scope.post(UNSUBSCRIBE_PATH, { schema: { hide: true } }, async (request, reply) => {
      const token = tokenOf(request.query);
      const language = requestLanguage(request);
      try {
        if (!token) throw new AppError('unsubscribe_link_invalid', 'token');
        const { eventTitle, recipient } = await notifications.unsubscribe(token);
        return send(reply, 200, unsubscribeDonePage({ eventTitle, recipient, language }));
      } catch (error) {
        if (error instanceof AppError) return send(reply, 400, unsubscribeInvalidPage(language));
        throw error;
      }
    });
    done();
  });
};
