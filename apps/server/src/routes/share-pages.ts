import type { FastifyInstance, FastifyReply } from 'fastify';
import { isSafeText } from '@flashbulb/shared';
import { escapeHtml } from '../lib/escape-html.ts';
import { pageTypeFromQuery } from '@flashbulb/shared/rules/page-type';
import type {
  SharePage,
  SharePreviewPage,
  ShareService,
  ViewerPage,
} from '../services/albums/share.service.ts';

const e = escapeHtml;

/** Share pages load nothing but their own media: no scripts, no frames, no forms. */
const contentSecurityPolicy = (mediaOrigins: string[]): string => {
  const media = ["'self'", ...mediaOrigins].join(' ');
  return [
    "default-src 'none'",
    `img-src ${media}`,
    `media-src ${media}`,
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
};

const send = (reply: FastifyReply, status: number, html: string, mediaOrigins: string[]) =>
  reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', contentSecurityPolicy(mediaOrigins))
    .header('cache-control', status === 200 ? 'public, max-age=300' : 'no-cache')
    .header('referrer-policy', 'strict-origin-when-cross-origin')
    .send(html);

/** The shared photo or video at its own size, its URLs and alternative text escaped. */
const mediaHtml = (
  page: Pick<SharePage, 'videoUrl' | 'imageUrl' | 'width' | 'height'>,
  alt: string,
): string => {
  const size = page.width && page.height ? ` width="${page.width}" height="${page.height}"` : '';
  if (page.videoUrl) return `<video src="${e(page.videoUrl)}" controls playsinline${size}></video>`;
  return page.imageUrl ? `<img src="${e(page.imageUrl)}" alt="${e(alt)}"${size}>` : '';
};

const STYLE = `body{margin:0;background:#111;color:#eee;font-family:system-ui,sans-serif;text-align:center}
main{max-width:960px;margin:0 auto;padding:16px}img,video{max-width:100%;height:auto;display:block;margin:0 auto}
a{color:#9cf}h1{font-size:1.3rem}`;

/** The event's sharing template, filled: escaped text, line breaks kept; the 360 viewer link. */
const bodyHtml = (page: Pick<SharePage, 'body' | 'viewerUrl'>): string => {
  const text = page.body.trim()
    ? `<p class="share-body">${e(page.body).replace(/\r?\n/g, '<br>')}</p>`
    : '';
  const viewer = page.viewerUrl
    ? `<p><a class="share-360" href="${e(page.viewerUrl)}">Open the 360° view</a></p>`
    : '';
  return `${text}${viewer}`;
};

export const renderSharePage = (page: SharePage): string => {
  const meta: [string, string][] = [
    ['og:title', page.title],
    ['og:description', page.description],
    ['og:url', page.pageUrl],
    ['og:type', page.mediaType === 'video' ? 'video.other' : 'website'],
    ['twitter:card', 'summary_large_image'],
    ['twitter:title', page.title],
    ['twitter:description', page.description],
  ];
  if (page.imageUrl) {
    meta.push(['og:image', page.imageUrl], ['twitter:image', page.imageUrl]);
    if (page.width && page.height)
      meta.push(['og:image:width', String(page.width)], ['og:image:height', String(page.height)]);
  }
  if (page.videoUrl) meta.push(['og:video', page.videoUrl], ['og:video:type', 'video/mp4']);
  const tags = meta
    .map(([property, content]) =>
      property.startsWith('twitter:')
        ? `<meta name="${property}" content="${e(content)}">`
        : `<meta property="${property}" content="${e(content)}">`,
    )
    .join('\n');
  const media = mediaHtml(page, page.title);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(page.title)}</title>
<meta name="description" content="${e(page.description)}">
<link rel="canonical" href="${e(page.pageUrl)}">
${tags}
<style>${STYLE}</style></head>
<body><main><h1>${e(page.title)}</h1>
${media}
${bodyHtml(page)}
<p>${e(page.description)}</p>
<p><a href="${e(page.photoUrl)}">${page.mediaType === 'video' ? 'Open the video' : 'Open the photo'}</a></p>
</main></body></html>`;
};

export const renderViewerPage = (page: ViewerPage): string => {
  const watermark = page.watermarkUrl
    ? `<img class="wm" src="${e(page.watermarkUrl)}" alt="">`
    : page.watermarkText
      ? `<div class="wm wm-text">${e(page.watermarkText)}</div>`
      : '';
  const close = page.closeable
    ? `<a class="close" href="${e(page.closeUrl)}" aria-label="Close">×</a>`
    : '';
  // A 360° panorama without scripts: the equirectangular image at full height, panned by scrolling.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>360° photo</title>
<style>html,body{margin:0;height:100%;background:#000;overflow:hidden}
.pano{height:100%;overflow-x:auto;overflow-y:hidden;white-space:nowrap}
.pano img{height:100%;width:auto;display:inline-block}
.wm{position:fixed;right:16px;bottom:16px;max-width:30%;max-height:30%;opacity:.8;pointer-events:none}
.wm-text{color:#fff;font:bold 1.2rem system-ui,sans-serif;text-shadow:0 0 4px #000}
.close{position:fixed;top:8px;right:12px;color:#fff;font:2rem system-ui,sans-serif;text-decoration:none}</style>
</head><body>
<div class="pano"><img src="${e(page.imageUrl)}" alt="360° photo"></div>
${watermark}${close}
</body></html>`;
};

const PREVIEW_STYLE = `*{box-sizing:border-box}
html,body{margin:0;min-height:100%;background:#0f1115;color:#f2f3f5;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{display:flex;flex-direction:column;align-items:center;min-height:100vh}
header{width:100%;display:flex;align-items:center;justify-content:center;gap:12px;padding:20px 16px 8px}
header img{height:48px;width:auto;max-width:200px;object-fit:contain}
main{width:100%;max-width:1100px;padding:8px 16px 32px;display:flex;flex-direction:column;align-items:center;gap:16px;flex:1}
h1{font-size:clamp(1.25rem,2.5vw,1.75rem);font-weight:650;margin:4px 0 0;text-align:center;line-height:1.25}
.desc{margin:0;color:#b8bcc6;text-align:center;max-width:60ch;line-height:1.5}
figure{margin:0;width:100%;display:flex;justify-content:center}
figure img,figure video{max-width:100%;max-height:72vh;width:auto;height:auto;border-radius:12px;box-shadow:0 12px 40px rgba(0,0,0,.55);background:#1b1e25}
.cta{display:inline-flex;align-items:center;justify-content:center;min-height:48px;padding:0 28px;border-radius:999px;background:#f2f3f5;color:#0f1115;font-weight:600;text-decoration:none;font-size:1rem}
.cta:focus-visible{outline:3px solid #7aa7ff;outline-offset:3px}
footer{padding:16px;color:#7d828e;font-size:.8rem}
.state{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:12px;text-align:center;padding:48px 24px;max-width:34rem}
.state .icon{width:64px;height:64px;border-radius:50%;background:#1b1e25;display:flex;align-items:center;justify-content:center;font-size:28px}`;

/**
 * The share-preview page (`/?photoId=…&imgSrc=…&url=…&eName=…`, albums §2.1): the shared photo
 * with the event's Open Graph and Twitter tags for link previews, the event's logo (linked to its
 * `logo_link`) and a button on to the photo's own page (never the album: no key rides along).
 * No scripts; every value escaped.
 */
export const renderSharePreviewPage = (page: Extract<SharePreviewPage, { status: 200 }>) => {
  const base = renderSharePage(page);
  const head = base.slice(0, base.indexOf('<style>'));
  const media = mediaHtml(page, `A photo from ${page.title}`);
  const logoImg = page.logoUrl ? `<img src="${e(page.logoUrl)}" alt="${e(page.title)} logo">` : '';
  const logo = logoImg
    ? page.logoLink
      ? `<a href="${e(page.logoLink)}" rel="noopener" target="_blank">${logoImg}</a>`
      : logoImg
    : '';
  const description =
    page.description && page.description !== page.title
      ? `<p class="desc">${e(page.description)}</p>`
      : '';
  return `${head}<style>${PREVIEW_STYLE}</style></head>
<body>${logo ? `<header>${logo}</header>` : ''}
<main><h1>${e(page.title)}</h1>
${description}
<figure>${media}</figure>
${bodyHtml(page)}
<a class="cta" href="${e(page.pageUrl)}">Open the photo</a>
</main><footer>Shared from ${e(page.title)}</footer></body></html>`;
};

/** What a guest reads when a photo link is incomplete or the photo is gone (no developer text). */
export const renderSharePreviewState = (reason: 'incomplete' | 'unavailable'): string => {
  const [title, text] =
    reason === 'incomplete'
      ? [
          'This photo link is incomplete',
          'Part of the link seems to be missing. Ask the person who shared it to send it again, or open the album link you were given.',
        ]
      : [
          'This photo is not available',
          'It may have been removed, or the album is no longer shared. Ask the person who shared it for a new link.',
        ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(title)}</title><style>${PREVIEW_STYLE}</style></head>
<body><main><div class="state" role="alert"><div class="icon" aria-hidden="true">🖼</div>
<h1>${e(title)}</h1><p class="desc">${e(text)}</p></div></main></body></html>`;
};

const notFoundPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title>
<style>${STYLE}</style></head><body><main><h1>This photo is not available</h1></main></body></html>`;

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
    const preview = await shares.sharePreview({
      photoId: clip(page.photoId),
      imgSrc: clip(page.imgSrc),
      url: clip(page.url),
      eventName: clip(page.eventName),
    });
    if (preview.status !== 200)
      return send(reply, preview.status, renderSharePreviewState(preview.reason), []);
    return send(reply, 200, renderSharePreviewPage(preview), preview.mediaOrigins);
  });
};

/** `GET /share/<photo uid>` and `GET /share/viewer?url=…&closeable=…&wm=…` (server-rendered). */
export const registerSharePages = (app: FastifyInstance, shares: ShareService): void => {
  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/share/viewer',
    { schema: { hide: true } },
    async (request, reply) => {
      const url = request.query.url;
      const page =
        typeof url === 'string' && url.length <= 2048 && isSafeText(url)
          ? await shares.viewerPage({
              url,
              closeable: truthy(request.query.closeable),
              watermark: request.query.wm === '111',
            })
          : null;
      if (!page) return send(reply, 404, notFoundPage, []);
      return send(reply, 200, renderViewerPage(page), page.mediaOrigins);
    },
  );
  app.get<{ Params: { uid: string } }>(
    '/share/:uid',
    { schema: { hide: true } },
    async (request, reply) => {
      const uid = request.params.uid;
      const page = /^[0-9a-f]{1,100}$/.test(uid) ? await shares.sharePage(uid) : null;
      if (!page) return send(reply, 404, notFoundPage, []);
      return send(reply, 200, renderSharePage(page), page.mediaOrigins);
    },
  );
};
