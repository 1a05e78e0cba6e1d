import { fillText as fillI18n } from '@flashbulb/shared/i18n/format';
import { DEFAULT_GUEST_LANGUAGE, type GuestLanguage } from '@flashbulb/shared/i18n/languages';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { frameTexts, httpUrlOrNull, layoutHtml, type MailFrame } from './mail-layout.ts';

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
 *   and shows every other tag as text. Nothing in a template or a value can run script in a mail
 *   client or a page.
 * - Placeholder values are text, never links: `{user_name}` and `{sender_name_or_email}` are
 *   written by whoever asked for the message (a guest's receiver name), so they are escaped, never
 *   made anchors nor put in an `href`, and zero-width spaces in their addresses (`inertText`)
 *   keep mail clients and phones from turning an address in them into a link (HTML, text part
 *   and SMS alike). Only the product's own link values (`{image_url}`, `{url}`) become links.
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
/** A link in a template's own text; never runs into a placeholder's marker (see `mark`). */
const LINK = /\bhttps?:\/\/[^\s<>"'\uE000\uE001]+/g;

/** Link values the product makes itself; every other value is a requester's text. */
const LINK_VALUES = new Set<keyof TemplateValues>(['image_url', 'imageUrl', 'url']);

/**
 * A requester's text as mail clients and phones will not link it: a zero-width space after each
 * `.` or `@` before a letter or digit and after `:` before `/` (`evil.example/login`,
 * `https://…`, `a@b.example` stay readable, and are no links).
 */
export const inertText = (value: string): string =>
  value.replace(/([.@])(?=[\p{L}\p{N}])|(:)(?=\/)/gu, '$1$2\u200B');

/** The template with its placeholders filled in, as plain text (subjects: no client links them). */
export const fillText = (template: string, values: TemplateValues): string =>
  template.replace(PLACEHOLDER, (match, name: keyof TemplateValues) => values[name] ?? match);

/** Filled for the text part and SMS: a requester's text made inert, link values as they are. */
const fillInert = (template: string, values: TemplateValues): string =>
  template.replace(PLACEHOLDER, (match, name: keyof TemplateValues) => {
    const value = values[name];
    if (value === undefined) return match;
    return LINK_VALUES.has(name) ? value : inertText(value);
  });

/** Filled inside an `href`: only link values; a requester's text never becomes an address. */
const fillHref = (template: string, values: TemplateValues): string =>
  template.replace(PLACEHOLDER, (match, name: keyof TemplateValues) =>
    LINK_VALUES.has(name) ? (values[name] ?? match) : '',
  );

/**
 * Placeholders become markers (private-use characters around an index) so the template's own text
 * is escaped and linked first and the values are put in afterwards (`unmark`), each by its kind.
 */
const mark = (template: string, values: TemplateValues): string =>
  template.replace(PLACEHOLDER, (match, name: keyof TemplateValues) =>
    values[name] === undefined ? match : `\uE000${name}\uE001`,
  );

const MARKER = /\uE000([A-Za-z_]+)\uE001/g;

/** The markers of `mark` replaced by their values' HTML: link values linked where links may be. */
const unmark = (html: string, values: TemplateValues, links: boolean): string =>
  html.replace(MARKER, (_match, name: keyof TemplateValues) => {
    const value = values[name] ?? '';
    if (!LINK_VALUES.has(name)) return escapeHtml(inertText(value));
    return links && httpUrlOrNull(value)
      ? `<a href="${escapeHtml(value.trim())}">${escapeHtml(value.trim())}</a>`
      : escapeHtml(value);
  });

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

/**
 * Escaped text, `<br>` for line breaks, the template's own http(s) links as anchors; markers of
 * `mark` replaced by their values.
 */
const textToHtml = (text: string, links: boolean, values: TemplateValues): string =>
  unmark(
    text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map(links ? linkify : escapeHtml)
      .join('<br>\n'),
    values,
    links,
  );

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
    html += textToHtml(mark(template.slice(last, start), values), inLink === 0, values);
    last = start + match[0].length;
    const closing = match[1] === '/';
    const name = (match[2] ?? '').toLowerCase();
    if (!ALLOWED_TAGS.has(name)) {
      html += escapeHtml(fillInert(match[0], values));
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
      const url = fillHref(href?.[1] ?? href?.[2] ?? href?.[3] ?? '', values).trim();
      html += SAFE_URL.test(url) ? `<a href="${escapeHtml(url)}">` : '<a>';
      continue;
    }
    html += `<${name}>`;
  }
  return html + textToHtml(mark(template.slice(last), values), inLink === 0, values);
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
    : textToHtml(mark(template, values), true, values);

/** The plain-text part: an HTML template loses its formatting tags (block ends become breaks). */
const renderBodyText = (template: string, values: TemplateValues): string => {
  if (!isHtmlTemplate(template)) return fillInert(template, values).trim();
  // Tags go from the template first: values keep every character they have.
  const plain = template
    .replace(/<br\s*\/?>|<\/(?:p|div|li|h[1-3])>/gi, '\n')
    .replace(TAG, (m: string, _c: string, name: string) =>
      ALLOWED_TAGS.has(name.toLowerCase()) ? '' : m,
    )
    .replace(/\n{3,}/g, '\n\n');
  return fillInert(plain, values).trim();
};

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A whole mail from a subject and body template: text and HTML parts in the event's frame. */
export const renderMail = (
  subjectTemplate: string,
  bodyTemplate: string,
  values: TemplateValues,
  frame: MailFrame,
): RenderedMail => {
  const subject = renderSubject(subjectTemplate, values);
  const actionUrl = httpUrlOrNull(frame.action?.url);
  const textParts = [
    frame.heading?.trim() ?? '',
    renderBodyText(bodyTemplate, values),
    (frame.details ?? []).join('\n'),
    frame.action && actionUrl ? `${frame.action.label}: ${actionUrl}` : '',
    frame.unsubscribeUrl
      ? `--\n${frame.eventTitle}\n${frameTexts(frame).unsubscribe}: ${frame.unsubscribeUrl}`
      : '',
  ].filter((part) => part.trim() !== '');
  return {
    subject,
    text: textParts.join('\n\n'),
    html: layoutHtml(subject, renderBodyHtml(bodyTemplate, values), frame),
  };
};

/**
 * An SMS text: placeholders filled, the opt-out link appended when given (worded in `language`),
 * at most 1600 characters.
 */
export const renderSms = (
  template: string,
  values: TemplateValues,
  unsubscribeUrl: string | null,
  language: GuestLanguage = DEFAULT_GUEST_LANGUAGE,
): string => {
  const suffix = unsubscribeUrl
    ? `\n${fillI18n(sharedTexts(language).mail.sms.stop, { url: unsubscribeUrl })}`
    : '';
  return (
    fillInert(template, values)
      .trim()
      .slice(0, 1600 - suffix.length) + suffix
  );
};
