import { escapeHtml } from '../../lib/escape-html.ts';

/**
 * Rendering of every owner-written message template (topic channels, `email_body_template`,
 * `email_body_template_share`, `receipt_email_body`, SMS texts) — one place, so the kiosk's album
 * mail and the notifications render the same way.
 *
 * Rules:
 * - A template is written by an event's operator and is not trusted: plain text is escaped, line
 *   breaks become `<br>`, http(s) links (typed, or values such as `{image_url}`) become anchors;
 *   an HTML template (the product's defaults are) keeps only formatting tags (p, br, a with an
 *   http(s)/mailto href, b, strong, i, em, u, lists, h1–h3, div, span) without other attributes,
 *   and shows every other tag as text. Placeholder values are always escaped. Nothing in a
 *   template or a value can run script in a mail client or a page.
 * - Placeholders (owner console §9: `{user_name}`, `{image_url}`, `{url}`,
 *   `{sender_name_or_email}`, `{userName}`, `{imageUrl}`) are replaced by their values, escaped in
 *   HTML; an unknown placeholder is left as written.
 * - Subjects lose line breaks (no header injection) and are cut at 250 characters.
 */

export type TemplateValues = Partial<
  Record<
    'user_name' | 'image_url' | 'url' | 'sender_name_or_email' | 'userName' | 'imageUrl',
    string
  >
>;

const PLACEHOLDER = /\{(user_name|image_url|url|sender_name_or_email|userName|imageUrl)\}/g;
const LINK = /\bhttps?:\/\/[^\s<>"']+/g;

/** The template with its placeholders filled in, as plain text. */
export const fillText = (template: string, values: TemplateValues): string =>
  template.replace(PLACEHOLDER, (match, name: keyof TemplateValues) => values[name] ?? match);

/** A subject line: placeholders filled, no line breaks, at most 250 characters. */
export const renderSubject = (template: string, values: TemplateValues): string =>
  fillText(template, values)
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .slice(0, 250);

/** Escaped text with its http(s) links made anchors (the link text is the escaped address). */
const linkify = (text: string): string => {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    // A sentence's closing punctuation is not part of the link.
    const url = match[0].replace(/[.,;:!?)]+$/, '');
    html += escapeHtml(text.slice(last, start));
    html += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = start + url.length;
  }
  return html + escapeHtml(text.slice(last));
};

/** Escaped text, `<br>` for line breaks, http(s) links as anchors. */
const textToHtml = (text: string, links: boolean): string =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map(links ? linkify : escapeHtml)
    .join('<br>\n');

/** Formatting tags an operator's HTML template may keep; every other tag shows as text. */
const ALLOWED_TAGS = new Set('p br a b strong i em u ul ol li h1 h2 h3 div span'.split(' '));
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const SAFE_URL = /^(?:https?:\/\/|mailto:)/i;

/**
 * An operator's HTML template made safe: allowed formatting tags are rebuilt with no attribute
 * but an http(s)/mailto `href` on links (placeholders filled first, so a value cannot smuggle
 * `javascript:`); everything else — other tags, text, placeholder values — is escaped.
 */
const sanitiseHtml = (template: string, values: TemplateValues): string => {
  let html = '';
  let last = 0;
  let inLink = 0;
  for (const match of template.matchAll(TAG)) {
    const start = match.index;
    html += textToHtml(fillText(template.slice(last, start), values), inLink === 0);
    last = start + match[0].length;
    const closing = match[1] === '/';
    const name = (match[2] ?? '').toLowerCase();
    if (!ALLOWED_TAGS.has(name)) {
      html += escapeHtml(fillText(match[0], values));
      continue;
    }
    if (closing) {
      if (name === 'a') inLink = Math.max(0, inLink - 1);
      html += name === 'br' ? '' : `</${name}>`;
      continue;
    }
    if (name === 'a') {
      inLink += 1;
      const href = HREF.exec(match[3] ?? '');
      const url = fillText(href?.[1] ?? href?.[2] ?? href?.[3] ?? '', values).trim();
      html += SAFE_URL.test(url) ? `<a href="${escapeHtml(url)}">` : '<a>';
      continue;
    }
    html += `<${name}>`;
  }
  return html + textToHtml(fillText(template.slice(last), values), inLink === 0);
};

/** Whether a template is written as HTML (has a formatting tag) rather than plain text. */
const isHtmlTemplate = (template: string): boolean =>
  [...template.matchAll(TAG)].some((m) => ALLOWED_TAGS.has((m[2] ?? '').toLowerCase()));

/**
 * The HTML of a template body. Plain text: escaped, `<br>` for line breaks, http(s) links as
 * anchors. HTML (the product's default templates are): sanitised (`sanitiseHtml`).
 */
export const renderBodyHtml = (template: string, values: TemplateValues): string =>
  isHtmlTemplate(template)
    ? sanitiseHtml(template, values)
    : textToHtml(fillText(template, values), true);

/** The plain-text part: an HTML template loses its formatting tags (block ends become breaks). */
const renderBodyText = (template: string, values: TemplateValues): string => {
  if (!isHtmlTemplate(template)) return fillText(template, values).trim();
  // Tags go from the template first: values keep every character they have.
  const plain = template
    .replace(/<br\s*\/?>|<\/(?:p|div|li|h[1-3])>/gi, '\n')
    .replace(TAG, (m: string, _c: string, name: string) =>
      ALLOWED_TAGS.has(name.toLowerCase()) ? '' : m,
    )
    .replace(/\n{3,}/g, '\n\n');
  return fillText(plain, values).trim();
};

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailFrame {
  /** The event's name shown in the footer (escaped). */
  eventTitle: string;
  /** The recipient's unsubscribe page; null: no footer link (operator mail). */
  unsubscribeUrl: string | null;
}

/** A whole mail from a subject and body template: text and HTML parts with the footer. */
export const renderMail = (
  subjectTemplate: string,
  bodyTemplate: string,
  values: TemplateValues,
  frame: MailFrame,
): RenderedMail => {
  const subject = renderSubject(subjectTemplate, values);
  const bodyText = renderBodyText(bodyTemplate, values);
  const footerText = frame.unsubscribeUrl
    ? `\n\n--\n${frame.eventTitle}\nUnsubscribe: ${frame.unsubscribeUrl}`
    : '';
  const footerHtml = frame.unsubscribeUrl
    ? `<hr><p style="font-size:12px;color:#666">${escapeHtml(frame.eventTitle)} · ` +
      `<a href="${escapeHtml(frame.unsubscribeUrl)}">Unsubscribe</a></p>`
    : '';
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body><div>${renderBodyHtml(bodyTemplate, values)}</div>${footerHtml}</body></html>`;
  return { subject, text: bodyText + footerText, html };
};

/** An SMS text: placeholders filled, the opt-out link appended when given, at most 1600 characters. */
export const renderSms = (
  template: string,
  values: TemplateValues,
  unsubscribeUrl: string | null,
): string => {
  const suffix = unsubscribeUrl ? `\nStop: ${unsubscribeUrl}` : '';
  return (
    fillText(template, values)
      .trim()
      .slice(0, 1600 - suffix.length) + suffix
  );
};
