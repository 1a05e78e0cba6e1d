import type { WebappEvent } from '@flashbulb/shared';
import { escapeHtml } from '../lib/escape-html.ts';

const e = escapeHtml;

/**
 * The web app's HTML shell for the web-app page `/?eName=<code>` (albums spec §2.1): link
 * previews (chat apps, social networks) read no scripts, so the event's title, Open Graph title
 * and description and its logo are written into the served `index.html`, every value escaped.
 */
export const webappShell = (html: string, page: WebappEvent, pageUrl: string): string => {
  const title = page.share_title.trim() || page.full_name;
  // Link previews fetch the image: an inline (data:) logo is no use to them.
  const fetchable = (src: string | null | undefined) => (src && /^https?:/i.test(src) ? src : null);
  const image =
    fetchable(page.logo?.src) ?? fetchable(page.logo_full_path) ?? fetchable(page.banner_top?.src);
  const meta: [string, string][] = [
    ['og:title', page.og_title],
    ['og:description', page.og_description],
    ['og:url', pageUrl],
    ['og:type', 'website'],
    ['twitter:card', image ? 'summary_large_image' : 'summary'],
    ['twitter:title', page.og_title],
    ['twitter:description', page.og_description],
  ];
  if (image) meta.push(['og:image', image], ['twitter:image', image]);
  const tags = [
    `<meta name="description" content="${e(page.og_description)}">`,
    ...meta.map(([property, content]) =>
      property.startsWith('twitter:')
        ? `<meta name="${property}" content="${e(content)}">`
        : `<meta property="${property}" content="${e(content)}">`,
    ),
  ].join('\n    ');
  const titled = html.replace(/<title>[^<]*<\/title>/i, () => `<title>${e(title)}</title>`);
  // A function replacement: `$` in a value is never read as a pattern.
  return titled.replace(/<\/head>/i, () => `    ${tags}\n  </head>`);
};
