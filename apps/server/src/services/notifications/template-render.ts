import { escapeHtml } from '../../lib/escape-html.ts';

/**
 * Rendering of every owner-written message template (topic channels, `email_body_template`,
 * `email_body_template_share`, `receipt_email_body`, SMS texts) — one place, so the kiosk's album
 * mail and the notifications render the same way.
 *
 * Rules:
 * - A template is text written by an event's operator, not trusted HTML: in the HTML part every
 *   character of it is escaped, line breaks become `<br>`, and http(s) links (placeholder values
 *   such as `{image_url}` or links typed into the template) become anchors. Nothing in a
 *   template or a value can open a tag, so nothing can run in a mail client or a page.
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

/** The HTML of a template body: escaped text, `<br>` for line breaks, http(s) links as anchors. */
export const renderBodyHtml = (template: string, values: TemplateValues): string =>
  fillText(template, values).replace(/\r\n?/g, '\n').split('\n').map(linkify).join('<br>\n');

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
  const bodyText = fillText(bodyTemplate, values).trim();
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
