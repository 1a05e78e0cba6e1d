import type { WebappEvent } from '@flashbulb/shared';
import { safeHtml, joinHtml, metaTags } from './page.ts';

/**
 * The web app's HTML shell for the web-app page `/?eName=<code>` (albums spec §2.1): link
 * previews (chat apps, social networks) read no scripts, so the event's title, Open Graph title
 * and description and its logo are written into the served `index.html`, every value escaped.
 */
export const webappShell = (shell: string, page: WebappEvent, pageUrl: string): string => {
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
  const tags = joinHtml(
    [safeHtml`<meta name="description" content="${page.og_description}">`, ...metaTags(meta)],
    '\n    ',
  );
  const titled = shell.replace(/<title>[^<]*<\/title>/i, () =>
    safeHtml`<title>${title}</title>`.toString(),
  );
  // A function replacement: `$` in a value is never read as a pattern.
  return titled.replace(/<\/head>/i, () => safeHtml`    ${tags}\n  </head>`.toString());
};
