import type { FastifyReply } from 'fastify';
import {
  DEFAULT_GUEST_LANGUAGE,
  textDirection,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';
import { escapeHtml } from '../lib/escape-html.ts';

/**
 * The one way the server writes HTML (share pages, the kiosk entry page, the unsubscribe page, the
 * album's first paint, the web-app shell's tags): a tagged template, `safeHtml\`…\``, that escapes
 * every interpolated value unless it is already markup — made by `safeHtml` itself, or wrapped by
 * `trusted` (style sheets and scripts the server writes, never user text). A page cannot forget to
 * escape a value: leaving the escape out is what it takes effort to do. (Not named `html`: Prettier
 * reformats templates of that tag as HTML, which would change the bytes a page sends.)
 */

/** Markup that is safe to write as it is: made by `safeHtml`, `textHtml`, `joinHtml` or `trusted`. */
export class Html {
  readonly #markup: string;
  constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

/** What a template takes: markup as it is; text and numbers escaped; nothing for null or false. */
export type HtmlPart = Html | string | number | null | undefined | false | readonly HtmlPart[];

const render = (part: HtmlPart): string => {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.toString();
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
};

/** HTML with every interpolated value escaped (arrays are joined, `Html` parts kept as they are). */
export const safeHtml = (strings: TemplateStringsArray, ...values: readonly HtmlPart[]): Html => {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
};

/** Markup the server wrote itself (a style sheet, a script, constant SVG): written unescaped. */
export const trusted = (markup: string): Html => new Html(markup);

/**
 * A shared text (`{{name}}` placeholders) as markup: the text escaped, each placeholder replaced by
 * its value (markup kept, text escaped), so a sentence can hold `<strong>` parts.
 */
export const textHtml = (template: string, values: Readonly<Record<string, HtmlPart>>): Html =>
  new Html(
    template
      .split(/(\{\{\s*\w+\s*\}\})/)
      .map((piece) => {
        const name = /^\{\{\s*(\w+)\s*\}\}$/.exec(piece)?.[1];
        return name !== undefined && Object.hasOwn(values, name)
          ? render(values[name])
          : escapeHtml(piece);
      })
      .join(''),
  );

/** Parts joined with a separator (the separator is markup the caller wrote). */
export const joinHtml = (parts: readonly HtmlPart[], separator = ''): Html =>
  new Html(parts.map(render).join(separator));

/**
 * JSON safe inside a `<script>` element: no `<`, `>` or `&` (a value can close the element or open
 * a comment), and no line separators (JSON allows them, older script parsers do not).
 */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** `https:` or `http:` links only (no `javascript:`, `data:` …), normalised; null otherwise. */
export const safeLink = (url: string): string | null => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
};

/** Link-preview tags: Open Graph ones by `property`, Twitter ones by `name`. */
export const metaTags = (meta: readonly (readonly [string, string])[]): Html[] =>
  meta.map(([property, content]) =>
    property.startsWith('twitter:')
      ? safeHtml`<meta name="${property}" content="${content}">`
      : safeHtml`<meta property="${property}" content="${content}">`,
  );

export interface DocumentParts {
  /** The `viewport` meta's content. */
  viewport: string;
  /** The head after the viewport: title, meta and link tags in the page's order. */
  head: Html;
  /** The page's style sheet (the server's own text). */
  style: string;
  /** The nonce of the page's style and script (a page with a CSP nonce), else none. */
  nonce?: string | null;
  body: Html;
  /** The page's language (`lang`, and `dir="rtl"` for Arabic); English when not given. */
  language?: GuestLanguage;
}

/** The document shell every server-rendered page shares: its language, UTF-8, one style sheet. */
export const documentHtml = (parts: DocumentParts): Html =>
  safeHtml`<!doctype html>
<html lang="${parts.language ?? DEFAULT_GUEST_LANGUAGE}" dir="${textDirection(parts.language ?? DEFAULT_GUEST_LANGUAGE)}"><head><meta charset="utf-8">
<meta name="viewport" content="${parts.viewport}">
${parts.head}
<style${parts.nonce ? safeHtml` nonce="${parts.nonce}"` : ''}>${trusted(parts.style)}</style></head>
<body>${parts.body}</body></html>
`;

/** A Content-Security-Policy header from its directives (`default-src 'none'` first). */
export const contentSecurityPolicy = (directives: readonly string[]): string =>
  ["default-src 'none'", ...directives].join('; ');

/** Sends a page: HTML content type, the page's policy and caching, and the status. */
export const sendPage = (
  reply: FastifyReply,
  page: Html,
  options: {
    status?: number;
    csp?: string;
    cacheControl: string;
    referrerPolicy: string;
    /** Request headers the page's words depend on (its language). */
    vary?: string;
  },
) => {
  void reply
    .code(options.status ?? 200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', options.cacheControl)
    .header('referrer-policy', options.referrerPolicy);
  if (options.csp) void reply.header('content-security-policy', options.csp);
  if (options.vary) void reply.header('vary', options.vary);
  return reply.send(page.toString());
};
