import type { FastifyInstance, FastifyReply } from 'fastify';
import { isSafeText } from '@flashbulb/shared';
import { pageTypeFromQuery } from '@flashbulb/shared/rules/page-type';
import { contentSecurityPolicy, type Html, sendPage } from '../pages/page.ts';
import {
  renderSharePage,
  renderSharePreviewPage,
  renderSharePreviewState,
  renderViewerPage,
  sharePagePolicy,
  shareNotFoundPage,
  viewerPagePolicy,
} from '../pages/share.ts';
import type { ShareService } from '../services/albums/share.service.ts';
import { LANGUAGE_VARY, requestLanguage } from '../http/guest-language.ts';

const send = (
  reply: FastifyReply,
  status: number,
  page: Html,
  mediaOrigins: string[],
  policy: (origins: readonly string[]) => string[] = sharePagePolicy,
) =>
  sendPage(reply, page, {
    status,
    csp: contentSecurityPolicy(policy(mediaOrigins)),
    cacheControl: status === 200 ? 'public, max-age=300' : 'no-cache',
    referrerPolicy: 'strict-origin-when-cross-origin',
    // Worded in the guest's language (the link's, their choice, their browser's).
    vary: LANGUAGE_VARY,
  });

const truthy = (value: string | undefined): boolean => value === 'true' || value === '1';

/**
 * `GET /?photoId=…` (the share-preview page; `pageTypeFromQuery` names it): rendered here, with
 * no scripts. Every other `/` link goes on to the web app (the not-found handler serves it).
 */
export const registerSharePreview = (app: FastifyInstance, shares: ShareService): void => {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const { page } = pageTypeFromQuery(search);
    if (page.kind !== 'share-preview') return reply.callNotFound();
    const clip = (v: string | null) => (v && v.length <= 2048 && isSafeText(v) ? v : null);
    const language = { language: requestLanguage(request) };
    const preview = await shares.sharePreview({
      photoId: clip(page.photoId),
      imgSrc: clip(page.imgSrc),
      url: clip(page.url),
      eventName: clip(page.eventName),
    });
    if (preview.status !== 200)
      return send(reply, preview.status, renderSharePreviewState(preview.reason, language), []);
    return send(reply, 200, renderSharePreviewPage(preview, language), preview.mediaOrigins);
  });
};

/** `GET /share/<photo uid>` and `GET /share/viewer?url=…&closeable=…&wm=…` (server-rendered). */
export const registerSharePages = (app: FastifyInstance, shares: ShareService): void => {
  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/share/viewer',
    { schema: { hide: true } },
    async (request, reply) => {
      const url = request.query.url;
      const language = { language: requestLanguage(request) };
      const page =
        typeof url === 'string' && url.length <= 2048 && isSafeText(url)
          ? await shares.viewerPage({
              url,
              closeable: truthy(request.query.closeable),
              watermark: request.query.wm === '111',
            })
          : null;
      if (!page) return send(reply, 404, shareNotFoundPage(language), []);
      return send(
        reply,
        200,
        renderViewerPage(page, language),
        page.mediaOrigins,
        viewerPagePolicy,
      );
    },
  );
  app.get<{ Params: { uid: string } }>(
    '/share/:uid',
    { schema: { hide: true } },
    async (request, reply) => {
      const uid = request.params.uid;
      const language = { language: requestLanguage(request) };
      const page = /^[0-9a-f]{1,100}$/.test(uid) ? await shares.sharePage(uid) : null;
      if (!page) return send(reply, 404, shareNotFoundPage(language), []);
      return send(reply, 200, renderSharePage(page, language), page.mediaOrigins);
    },
  );
};
