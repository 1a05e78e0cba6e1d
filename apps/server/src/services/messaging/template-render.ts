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

/** The event's look in its mail (owner console §3 `logo_full_path`, `logo_link`; guest accent). */
export interface MailBrand {
  /** An http(s) URL of the logo image; null: the event's title is shown instead. */
  logoUrl: string | null;
  /** Where the logo leads (http(s)); null: not a link. */
  logoLink: string | null;
  /** `#rrggbb`; the product's own when the event has none. */
  accent: string | null;
}

export interface MailFrame {
  /** The event's name shown in the header and footer (escaped). */
  eventTitle: string;
  /** The recipient's unsubscribe page; null: no footer link (operator mail). */
  unsubscribeUrl: string | null;
  brand?: MailBrand;
  /** A heading above the body (plain text, escaped). */
  heading?: string;
  /** Photo thumbnails shown under the body, each linking to `href` (http(s) only). */
  thumbnails?: { src: string; href: string }[];
  /** How many photos there are beyond the thumbnails shown ("+ 3 more"). */
  moreCount?: number;
  /** Lines under the body (a receipt's amounts …), plain text. */
  details?: string[];
  /** The main button (http(s) only); also written out in the text part. */
  action?: { label: string; url: string };
}

/** The product's accent when the event names none. */
export const DEFAULT_ACCENT = '#4f46e5';
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const HTTP_URL = /^https?:\/\/[^\s<>"']+$/i;
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** An http(s) URL as given, or null (a mail never links or loads anything else). */
export const httpUrlOrNull = (value: string | null | undefined): string | null => {
  const url = value?.trim() ?? '';
  return HTTP_URL.test(url) ? url : null;
};

/** Thumbnails in rows of three (tables: mail clients lay tables out, not grids). */
const thumbnailsHtml = (frame: MailFrame, accent: string): string => {
  const thumbs = (frame.thumbnails ?? []).filter(
    (t) => httpUrlOrNull(t.src) && httpUrlOrNull(t.href),
  );
  if (thumbs.length === 0) return '';
  const rows: string[] = [];
  // One row of one or two is centred at its own width; fuller grids keep three columns.
  const single = thumbs.length < 3;
  for (let i = 0; i < thumbs.length; i += 3) {
    const cells = thumbs
      .slice(i, i + 3)
      .map(
        (t, j) =>
          `<td width="${single ? 160 : '33%'}" style="padding:4px;vertical-align:top"><a href="${escapeHtml(t.href)}">` +
          `<img src="${escapeHtml(t.src)}" width="160" alt="Photo ${i + j + 1}" ` +
          'style="display:block;width:100%;max-width:160px;height:auto;border:0;border-radius:8px;background:#e9e9ee"></a></td>',
      );
    while (!single && cells.length < 3) cells.push('<td width="33%" style="padding:4px"></td>');
    rows.push(`<tr>${cells.join('')}</tr>`);
  }
  const more =
    frame.moreCount && frame.moreCount > 0
      ? `<p style="margin:8px 0 0;font-size:14px;color:${accent};text-align:center">+ ${frame.moreCount} more</p>`
      : '';
  return (
    '<tr><td style="padding:4px 28px 8px">' +
    `<table role="presentation" ${single ? 'align="center"' : 'width="100%"'} cellpadding="0" cellspacing="0">${rows.join('')}</table>${more}</td></tr>`
  );
};

/**
 * The HTML document around a rendered body: the event's logo (or title) at the top, an optional
 * heading, the body, thumbnails, detail lines and one button, then the footer with the
 * unsubscribe link. Inline styles and tables only (mail clients drop style sheets); at most
 * 560 px wide and fluid below, so it reads on a phone.
 */
const layoutHtml = (subject: string, bodyHtml: string, frame: MailFrame): string => {
  const brand = frame.brand;
  const accent = brand?.accent && HEX_COLOUR.test(brand.accent) ? brand.accent : DEFAULT_ACCENT;
  const title = escapeHtml(frame.eventTitle);
  const logoUrl = httpUrlOrNull(brand?.logoUrl);
  const logoLink = httpUrlOrNull(brand?.logoLink);
  const mark = logoUrl
    ? `<img src="${escapeHtml(logoUrl)}" alt="${title}" height="56" style="display:inline-block;height:56px;width:auto;max-width:240px;border:0">`
    : `<span style="font-size:15px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:${accent}">${title}</span>`;
  const header =
    '<tr><td style="padding:28px 28px 4px;text-align:center">' +
    (logoLink
      ? `<a href="${escapeHtml(logoLink)}" style="text-decoration:none">${mark}</a>`
      : mark) +
    '</td></tr>';
  const heading = frame.heading?.trim()
    ? `<tr><td style="padding:12px 28px 0;text-align:center"><h1 style="margin:0;font-size:24px;line-height:1.3;font-weight:700;color:#17171c">${escapeHtml(frame.heading.trim())}</h1></td></tr>`
    : '';
  const body = `<tr><td style="padding:16px 28px 8px;font-size:16px;line-height:1.6;color:#33333b">${bodyHtml}</td></tr>`;
  const details = frame.details?.length
    ? '<tr><td style="padding:4px 28px 8px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-top:1px solid #e6e6eb">' +
      frame.details
        .map(
          (line) =>
            `<tr><td style="padding:10px 0;border-bottom:1px solid #e6e6eb;font-size:15px;color:#17171c">${escapeHtml(line)}</td></tr>`,
        )
        .join('') +
      '</table></td></tr>'
    : '';
  const actionUrl = httpUrlOrNull(frame.action?.url);
  const action =
    frame.action && actionUrl
      ? '<tr><td style="padding:16px 28px 28px;text-align:center">' +
        `<a href="${escapeHtml(actionUrl)}" style="display:inline-block;background:${accent};color:#ffffff;` +
        'font-size:16px;font-weight:600;line-height:1;padding:15px 30px;border-radius:999px;text-decoration:none">' +
        `${escapeHtml(frame.action.label)}</a></td></tr>`
      : '<tr><td style="padding:0 0 20px"></td></tr>';
  const footer =
    '<tr><td style="padding:18px 28px 0;text-align:center;font-size:12px;line-height:1.6;color:#7a7a85">' +
    title +
    (frame.unsubscribeUrl
      ? ` &middot; <a href="${escapeHtml(frame.unsubscribeUrl)}" style="color:#7a7a85">Unsubscribe</a>`
      : '') +
    '</td></tr>';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light">' +
    `<title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f1f1f4;font-family:${FONT}">` +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f1f4">' +
    '<tr><td align="center" style="padding:24px 12px">' +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:14px;font-family:${FONT}">` +
    header +
    heading +
    body +
    thumbnailsHtml(frame, accent) +
    details +
    action +
    '</table>' +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;font-family:${FONT}">` +
    footer +
    '</table></td></tr></table></body></html>'
  );
};

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
    frame.unsubscribeUrl ? `--\n${frame.eventTitle}\nUnsubscribe: ${frame.unsubscribeUrl}` : '',
  ].filter((part) => part.trim() !== '');
  return {
    subject,
    text: textParts.join('\n\n'),
    html: layoutHtml(subject, renderBodyHtml(bodyTemplate, values), frame),
  };
};

/** An SMS text: placeholders filled, the opt-out link appended when given, at most 1600 characters. */
export const renderSms = (
  template: string,
  values: TemplateValues,
  unsubscribeUrl: string | null,
): string => {
  const suffix = unsubscribeUrl ? `\nStop: ${unsubscribeUrl}` : '';
  return (
    fillInert(template, values)
      .trim()
      .slice(0, 1600 - suffix.length) + suffix
  );
};
