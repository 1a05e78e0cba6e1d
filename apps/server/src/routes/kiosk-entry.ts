import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_BASE, kioskEntryConfigFrom } from '@flashbulb/shared';
import { keyEventOf, type Principal } from '../access/principal.ts';
import { kioskEntryNotFoundPage, logoOrigin, renderKioskEntryPage } from '../pages/kiosk-entry.ts';
import { contentSecurityPolicy, sendPage } from '../pages/page.ts';
import { requestLanguage } from '../http/guest-language.ts';

/**
 * `GET /kiosk/entry?kType=evSB1|evSB2&pvId=…&pricingModel=…&kioskPreviewSize=…&miniAlbumPreviewSize=…`:
 * the kiosk entry page of the event whose private key the link carries (`download=1`: the same page
 * as one standalone HTML file, talking to the public URL). The check-card call answers any origin
 * (the downloaded file runs from `file://`): it reads no cookie, the key is in the body.
 */
export const registerKioskEntry = (
  app: FastifyInstance,
  deps: {
    resolveKey: (keyType: 'private', keyValue: string) => Promise<Principal>;
    publicUrl: string;
  },
): void => {
  const checkPath = `${API_BASE}/attendee/check-card`;
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.split('?')[0] !== checkPath) return;
    void reply.header('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS') {
      return reply
        .code(204)
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'content-type')
        .header('access-control-max-age', '600')
        .send();
    }
  });

  app.get('/kiosk/entry', { schema: { hide: true } }, async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const config = kioskEntryConfigFrom(query);
    const principal = config ? await deps.resolveKey('private', config.privateKey) : null;
    const event = principal ? keyEventOf(principal) : null;
    if (!config || !event) {
      return sendPage(
        reply,
        kioskEntryNotFoundPage(requestLanguage(request, null, { kiosk: true })),
        {
          status: 404,
          cacheControl: 'no-store',
          referrerPolicy: 'no-referrer',
        },
      );
    }
    const download = query.get('download') === '1';
    const logoHost = logoOrigin(event.row.logo_full_path);
    const nonce = download ? null : randomBytes(16).toString('base64');
    // The event's language, or the one the screen's switcher put in the link.
    const language = requestLanguage(request, event.row.opts, { kiosk: true });
    const selfQuery = new URLSearchParams(query);
    selfQuery.delete('lang');
    const page = renderKioskEntryPage({
      eventTitle: event.row.full_name,
      logo: event.row.logo_full_path,
      accent: event.row.opts.guestAccentColor,
      config,
      origin: download ? deps.publicUrl : '',
      nonce,
      language,
      languageChosen: query.has('lang'),
      // The downloaded file has no server to ask for another language.
      selfUrl: download ? undefined : `/kiosk/entry?${selfQuery.toString()}`,
    });
    if (download) {
      const name = event.row.name.replace(/[^A-Za-z0-9_-]/g, '') || 'event';
      void reply.header(
        'content-disposition',
        `attachment; filename="kiosk-${name}-${config.mode}.html"`,
      );
    }
    return sendPage(reply, page, {
      cacheControl: 'no-store',
      referrerPolicy: 'no-referrer',
      // The downloaded file runs from `file://`: no policy rides along with it.
      csp: download
        ? undefined
        : contentSecurityPolicy([
            `script-src 'nonce-${nonce}'`,
            `style-src 'nonce-${nonce}'`,
            "connect-src 'self'",
            // The event's logo may live on another host (its storage, the organiser's site).
            `img-src 'self' data:${logoHost ? ` ${logoHost}` : ''}`,
            "media-src 'self' blob: mediastream:",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'self'",
          ]),
    });
  });
};
