import { fillText } from '@flashbulb/shared/i18n/format';
import { DEFAULT_GUEST_LANGUAGE, type GuestLanguage } from '@flashbulb/shared/i18n/languages';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import type { SharePage, SharePreviewPage, ViewerPage } from '../services/albums/share.service.ts';
import { documentHtml, safeHtml, joinHtml, metaTags, trusted, type Html } from './page.ts';
import { PANORAMA_SCRIPT, PANORAMA_SCRIPT_HASH } from './panorama-script.ts';

/**
 * The share pages (albums §2.1, §7.2): a shared photo's own page, the share preview with its link
 * tags, the 360° viewer and what a broken link shows. Every value escaped by `safeHtml`; no script
 * but the 360° viewer's own (allowed by its hash).
 */

/** The share pages' texts in the guest's language (routes/share-pages.ts picks it). */
const textsOf = (language: GuestLanguage) => sharedTexts(language).pages.share;
type Language = { language?: GuestLanguage };
const VIEWPORT = 'width=device-width, initial-scale=1';

/** Share pages load nothing but their own media: no scripts, no frames, no forms. */
export const sharePagePolicy = (mediaOrigins: readonly string[]): string[] => {
  const media = ["'self'", ...mediaOrigins].join(' ');
  return [
    `img-src ${media}`,
    `media-src ${media}`,
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ];
};

/** The shared photo or video at its own size. */
const mediaHtml = (
  page: Pick<SharePage, 'videoUrl' | 'imageUrl' | 'width' | 'height'>,
  alt: string,
): Html | '' => {
  const size =
    page.width && page.height ? safeHtml` width="${page.width}" height="${page.height}"` : '';
  if (page.videoUrl)
    return safeHtml`<video src="${page.videoUrl}" controls playsinline${size}></video>`;
  return page.imageUrl ? safeHtml`<img src="${page.imageUrl}" alt="${alt}"${size}>` : '';
};

const STYLE = `body{margin:0;background:#111;color:#eee;font-family:system-ui,sans-serif;text-align:center}
main{max-width:960px;margin:0 auto;padding:16px}img,video{max-width:100%;height:auto;display:block;margin:0 auto}
a{color:#9cf}h1{font-size:1.3rem}`;

/** The event's sharing template, filled: escaped text, line breaks kept; the 360 viewer link. */
const bodyHtml = (
  page: Pick<SharePage, 'body' | 'viewerUrl'>,
  language: GuestLanguage = DEFAULT_GUEST_LANGUAGE,
): Html => {
  const TEXT = textsOf(language);
  const text = page.body.trim()
    ? safeHtml`<p class="share-body">${joinHtml(page.body.split(/\r?\n/), '<br>')}</p>`
    : '';
  const viewer = page.viewerUrl
    ? safeHtml`<p><a class="share-360" href="${page.viewerUrl}">${TEXT.open360}</a></p>`
    : '';
  return safeHtml`${text}${viewer}`;
};

/** Title, description, canonical link and the Open Graph and Twitter tags of a shared photo. */
const shareHead = (page: SharePage): Html => {
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
  return safeHtml`<title>${page.title}</title>
<meta name="description" content="${page.description}">
<link rel="canonical" href="${page.pageUrl}">
${joinHtml(metaTags(meta), '\n')}`;
};

export const renderSharePage = (
  page: SharePage,
  { language = DEFAULT_GUEST_LANGUAGE }: Language = {},
): Html => {
  const TEXT = textsOf(language);
  return documentHtml({
    language,
    viewport: VIEWPORT,
    head: shareHead(page),
    style: STYLE,
    body: safeHtml`<main><h1>${page.title}</h1>
${mediaHtml(page, page.title)}
${bodyHtml(page, language)}
<p>${page.description}</p>
<p><a href="${page.photoUrl}">${page.mediaType === 'video' ? TEXT.openVideo : TEXT.openPhoto}</a></p>
</main>`,
  });
};

const VIEWER_STYLE = `html,body{margin:0;height:100%;background:#000;overflow:hidden}
.pano{height:100%;overflow-x:auto;overflow-y:hidden;white-space:nowrap}
.pano img{height:100%;width:auto;display:inline-block}
.sphere{position:fixed;inset:0;width:100%;height:100%;display:block;visibility:hidden;touch-action:none;cursor:grab;outline:none}
.sphere:active{cursor:grabbing}
[data-view=sphere] .sphere{visibility:visible}[data-view=sphere] .pano{visibility:hidden}
.hint{position:fixed;left:50%;bottom:16px;transform:translateX(-50%);display:none;margin:0;padding:6px 14px;border-radius:999px;background:rgba(0,0,0,.55);color:#fff;font:.9rem system-ui,sans-serif;pointer-events:none}
[data-view=sphere] .hint{display:block}
.motion{position:fixed;left:12px;top:12px;min-height:44px;padding:0 16px;border:0;border-radius:999px;background:rgba(0,0,0,.55);color:#fff;font:.9rem system-ui,sans-serif}
.motion[aria-pressed=true]{background:#fff;color:#000}
.wm{position:fixed;right:16px;bottom:16px;max-width:30%;max-height:30%;opacity:.8;pointer-events:none}
.wm-text{color:#fff;font:bold 1.2rem system-ui,sans-serif;text-shadow:0 0 4px #000}
.close{position:fixed;top:8px;right:12px;color:#fff;font:2rem system-ui,sans-serif;text-decoration:none;text-shadow:0 0 4px #000}`;

/** The viewer's policy: the share pages' own plus exactly its one script (by hash). */
export const viewerPagePolicy = (mediaOrigins: readonly string[]): string[] => [
  ...sharePagePolicy(mediaOrigins),
  `script-src ${PANORAMA_SCRIPT_HASH}`,
];

/**
 * A 360° panorama: the equirectangular picture turned with drag, pinch, wheel, arrow keys or (on
 * phones, after a tap) the gyroscope, drawn by `PANORAMA_SCRIPT`; without it the picture at full
 * height, panned by scrolling.
 */
export const renderViewerPage = (
  page: ViewerPage,
  { language = DEFAULT_GUEST_LANGUAGE }: Language = {},
): Html => {
  const TEXT = textsOf(language);
  const watermark = page.watermarkUrl
    ? safeHtml`<img class="wm" src="${page.watermarkUrl}" alt="">`
    : page.watermarkText
      ? safeHtml`<div class="wm wm-text">${page.watermarkText}</div>`
      : '';
  const close = page.closeable
    ? safeHtml`<a class="close" href="${page.closeUrl}" aria-label="${TEXT.close}">×</a>`
    : '';
  return documentHtml({
    language,
    viewport: VIEWPORT,
    head: safeHtml`<title>${TEXT.viewerTitle}</title>`,
    style: VIEWER_STYLE,
    body: safeHtml`
<div id="pano-root" data-view="flat">
<div class="pano"><img id="pano-img" src="${page.imageUrl}" alt="${TEXT.viewerTitle}"></div>
<canvas id="pano-canvas" class="sphere" tabindex="0" role="img" aria-label="${TEXT.viewerLabel}"></canvas>
<p class="hint">${TEXT.viewerHint}</p>
<button id="pano-motion" class="motion" type="button" aria-pressed="false" hidden>${TEXT.viewerMotion}</button>
</div>
${watermark}${close}
<script>${trusted(PANORAMA_SCRIPT)}</script>
`,
  });
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
 */
export const renderSharePreviewPage = (
  page: Extract<SharePreviewPage, { status: 200 }>,
  { language = DEFAULT_GUEST_LANGUAGE }: Language = {},
): Html => {
  const TEXT = textsOf(language);
  const logoImg = page.logoUrl
    ? safeHtml`<img src="${page.logoUrl}" alt="${fillText(TEXT.logoAlt, { title: page.title })}">`
    : '';
  const logo = logoImg
    ? page.logoLink
      ? safeHtml`<a href="${page.logoLink}" rel="noopener" target="_blank">${logoImg}</a>`
      : logoImg
    : '';
  const description =
    page.description && page.description !== page.title
      ? safeHtml`<p class="desc">${page.description}</p>`
      : '';
  const alt = fillText(TEXT.photoAlt, { title: page.title });
  return documentHtml({
    language,
    viewport: VIEWPORT,
    head: shareHead(page),
    style: PREVIEW_STYLE,
    body: safeHtml`${logo ? safeHtml`<header>${logo}</header>` : ''}
<main><h1>${page.title}</h1>
${description}
<figure>${mediaHtml(page, alt)}</figure>
${bodyHtml(page, language)}
<a class="cta" href="${page.pageUrl}">${TEXT.openPhoto}</a>
</main><footer>${fillText(TEXT.sharedFrom, { title: page.title })}</footer>`,
  });
};

/** What a guest reads when a photo link is incomplete or the photo is gone (no developer text). */
export const renderSharePreviewState = (
  reason: 'incomplete' | 'unavailable',
  { language = DEFAULT_GUEST_LANGUAGE }: Language = {},
): Html => {
  const TEXT = textsOf(language);
  const [title, text] =
    reason === 'incomplete'
      ? [TEXT.incompleteTitle, TEXT.incompleteText]
      : [TEXT.unavailableTitle, TEXT.unavailableText];
  return documentHtml({
    language,
    viewport: VIEWPORT,
    head: safeHtml`<meta name="robots" content="noindex">
<title>${title}</title>`,
    style: PREVIEW_STYLE,
    body: safeHtml`<main><div class="state" role="alert"><div class="icon" aria-hidden="true">🖼</div>
<h1>${title}</h1><p class="desc">${text}</p></div></main>`,
  });
};

/** What a share link to a photo that is gone shows. */
export const shareNotFoundPage = ({ language = DEFAULT_GUEST_LANGUAGE }: Language = {}): Html =>
  documentHtml({
    language,
    viewport: VIEWPORT,
    head: safeHtml`<title>${textsOf(language).notFoundDocumentTitle}</title>`,
    style: STYLE,
    body: safeHtml`<main><h1>${textsOf(language).notAvailable}</h1></main>`,
  });
