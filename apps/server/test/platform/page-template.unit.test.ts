import { describe, expect, it } from 'vitest';
import { documentHtml, joinHtml, safeHtml, textHtml, trusted } from '../../src/pages/page.ts';

/** The server's page template escapes every value unless it is markup the server made. */

const HOSTILE = `</title><script>alert(1)</script>"'&`;
const ESCAPED = '&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;';

describe('page template', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    expect(safeHtml`<p title="${HOSTILE}">${HOSTILE}</p>`.toString()).toBe(
      `<p title="${ESCAPED}">${ESCAPED}</p>`,
    );
    expect(safeHtml`<span>${42}</span>`.toString()).toBe('<span>42</span>');
  });

  it('keeps markup it made or that is wrapped as trusted; drops null, undefined and false', () => {
    const inner = safeHtml`<b>${HOSTILE}</b>`;
    expect(
      safeHtml`<p>${inner}${trusted('<i>x</i>')}${null}${undefined}${false}</p>`.toString(),
    ).toBe(`<p><b>${ESCAPED}</b><i>x</i></p>`);
  });

  it('joins arrays of values, escaping each', () => {
    expect(safeHtml`${[HOSTILE, safeHtml`<br>`]}`.toString()).toBe(`${ESCAPED}<br>`);
    expect(joinHtml(['a<', 'b>'], '<hr>').toString()).toBe('a&lt;<hr>b&gt;');
  });

  it('fills a shared text: the text escaped, placeholders replaced by their values', () => {
    const sentence = textHtml('Stop {{event}} & {{who}} {{unknown}}', {
      event: safeHtml`<strong>${HOSTILE}</strong>`,
      who: '<x>',
    });
    expect(sentence.toString()).toBe(
      `Stop <strong>${ESCAPED}</strong> &amp; &lt;x&gt; {{unknown}}`,
    );
  });

  it('writes the document shell with its nonce and style', () => {
    const page = documentHtml({
      viewport: 'width=device-width',
      head: safeHtml`<title>${HOSTILE}</title>`,
      style: 'a>b{color:red}',
      nonce: 'N"1',
      body: safeHtml`<main></main>`,
    }).toString();
    expect(page).toContain(`<title>${ESCAPED}</title>`);
    expect(page).toContain('<style nonce="N&quot;1">a>b{color:red}</style>');
    expect(page.startsWith('<!doctype html>\n<html lang="en" dir="ltr">')).toBe(true);
  });

  it('writes the page’s language, right to left for Arabic', () => {
    const page = (language?: 'ar' | 'es') =>
      documentHtml({
        viewport: 'width=device-width',
        head: safeHtml`<title>t</title>`,
        style: '',
        body: safeHtml`<main></main>`,
        ...(language ? { language } : {}),
      }).toString();
    expect(page('ar')).toContain('<html lang="ar" dir="rtl">');
    expect(page('es')).toContain('<html lang="es" dir="ltr">');
  });
});
