import { errorText } from '@flashbulb/shared';
import { documentHtml, safeHtml, type Html } from './page.ts';

/** What a browser opening a page gets while a backup is restored into the server (503). */
export const maintenancePage = (): Html =>
  documentHtml({
    viewport: 'width=device-width,initial-scale=1',
    head: safeHtml`<title>${errorText('maintenance')}</title>`,
    style:
      'body{font-family:system-ui,sans-serif;text-align:center;padding:48px 24px;line-height:1.5}',
    body: safeHtml`<main><h1>${errorText('maintenance')}</h1></main>`,
  });
