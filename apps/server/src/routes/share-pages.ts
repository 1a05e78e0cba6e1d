import type { FastifyInstance, FastifyReply } from 'fastify';
import { isSafeText } from '@flashbulb/shared';
import { escapeHtml } from '../lib/escape-html.ts';
import type { SharePage, ShareService, ViewerPage } from '../services/share.service.ts';

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

const STYLE = `body{margin:0;background:#111;color:#eee;font-family:system-ui,sans-serif;text-align:center}
main{max-width:960px;margin:0 auto;padding:16px}img,video{max-width:100%;height:auto;display:block;margin:0 auto}
a{color:#9cf}h1{font-size:1.3rem}`;

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
  if (page.videoUrl) meta.push(['og:video', page.videoUrl]);
  const tags = meta
    .map(([property, content]) =>
      property.startsWith('twitter:')
        ? `<meta name="${property}" content="${e(content)}">`
        : `<meta property="${property}" content="${e(content)}">`,
    )
    .join('\n');
  const size = page.width && page.height ? ` width="${page.width}" height="${page.height}"` : '';
  const media = page.videoUrl
    ? `<video src="${e(page.videoUrl)}" controls playsinline${size}></video>`
    : page.imageUrl
      ? `<img src="${e(page.imageUrl)}" alt="${e(page.title)}"${size}>`
      : '';
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
<p>${e(page.description)}</p>
<p><a href="${e(page.albumUrl)}">Open the album</a></p>
</main></body></html>`;
};

export const renderViewerPage = (page: ViewerPage): string => {
  const watermark = page.watermarkUrl
    ? `<img class="wm" src="${e(page.watermarkUrl)}" alt="">`
    : page.watermarkText
      ? `<div class="wm wm-text">${e(page.watermarkText)}</div>`
      : '';
  const close = page.closeable
    ? `<a class="close" href="${e(page.albumUrl)}" aria-label="Close">×</a>`
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

const notFoundPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title>
<style>${STYLE}</style></head><body><main><h1>This photo is not available</h1></main></body></html>`;

const truthy = (value: string | undefined): boolean => value === 'true' || value === '1';

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
