import { fillText } from '@flashbulb/shared/i18n/format';
import {
  DEFAULT_GUEST_LANGUAGE,
  textDirection,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import { escapeHtml } from '../../lib/escape-html.ts';

/**
 * The HTML frame every mail is sent in (the event's logo or title, heading, body, thumbnails,
 * details, one button, footer): the rendered template goes inside it (template-render.ts).
 */

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
  /** The language of the product's words in the frame (`lang`, `dir`, footer); English if none. */
  language?: GuestLanguage;
  /** A heading above the body (plain text, escaped). */
  heading?: string;
  /**
   * Photo thumbnails shown under the body, each linking to `href` (http(s) only); `alt` and a
   * `caption` under it for what is not a plain photo (a clip: its poster, "▶ Video · 0:06").
   */
  thumbnails?: { src: string; href: string; alt?: string; caption?: string }[];
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

/** The frame's own words in the mail's language. */
export const frameTexts = (frame: Pick<MailFrame, 'language'>) =>
  sharedTexts(frame.language ?? DEFAULT_GUEST_LANGUAGE).mail.frame;

/** Thumbnails in rows of three (tables: mail clients lay tables out, not grids). */
const thumbnailsHtml = (frame: MailFrame, accent: string): string => {
  const texts = frameTexts(frame);
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
          `<img src="${escapeHtml(t.src)}" width="160" alt="${escapeHtml(t.alt ?? fillText(texts.photoAlt, { number: i + j + 1 }))}" ` +
          'style="display:block;width:100%;max-width:160px;height:auto;border:0;border-radius:8px;background:#e9e9ee"></a>' +
          (t.caption
            ? `<div style="padding-top:4px;font-size:13px;font-weight:600;color:${accent};text-align:center">${escapeHtml(t.caption)}</div>`
            : '') +
          '</td>',
      );
    while (!single && cells.length < 3) cells.push('<td width="33%" style="padding:4px"></td>');
    rows.push(`<tr>${cells.join('')}</tr>`);
  }
  const more =
    frame.moreCount && frame.moreCount > 0
      ? `<p style="margin:8px 0 0;font-size:14px;color:${accent};text-align:center">${escapeHtml(fillText(texts.more, { count: frame.moreCount }))}</p>`
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
export const layoutHtml = (subject: string, bodyHtml: string, frame: MailFrame): string => {
  const brand = frame.brand;
  const language = frame.language ?? DEFAULT_GUEST_LANGUAGE;
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
      ? ` &middot; <a href="${escapeHtml(frame.unsubscribeUrl)}" style="color:#7a7a85">${escapeHtml(frameTexts(frame).unsubscribe)}</a>`
      : '') +
    '</td></tr>';
  return (
    `<!doctype html><html lang="${language}" dir="${textDirection(language)}"><head><meta charset="utf-8">` +
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
