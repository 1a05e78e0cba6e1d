import {
  formatAttendeeId,
  formatMoney,
  isValidEmail,
  kioskCardLink,
  kioskCardText,
} from '@flashbulb/shared';
import {
  eventLocalToInstant,
  eventOffsetMinutes,
  eventWallClock,
  formatUtcOffset,
  isValidTimeZone,
  type EventClock,
} from '@flashbulb/shared/rules/event-time';
import QRCode from 'qrcode';
import type { MailAttachment } from '../../db/schema.ts';
import { csvText } from '../../lib/csv.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { NotificationRepository } from '../../repositories/messaging/notification.repository.ts';
import type { OutboxService } from './outbox.service.ts';
import { mailBrand } from './mail-brand.ts';
import { renderMail } from './template-render.ts';

/**
 * A day's takings, each currency in its own minor unit (`€12.50`, `€12.50 + $3.00` when the
 * organisation changed its currency that day; orders keep the currency they were made in).
 */
const salesAmount = (
  byCurrency: readonly { currency: string; amount: number }[],
  currency: string,
): string =>
  byCurrency.length === 0
    ? formatMoney(0, currency)
    : byCurrency.map((s) => formatMoney(s.amount, s.currency)).join(' + ');

/** Cards written into the CSV attachment; a larger list is read in the console. */
export const LIST_CSV_MAX = 10_000;
/** Cards on the printable QR sheet (8 a page). */
export const LIST_SHEET_MAX = 200;

export interface AttendeeListMailJob {
  batchId: number;
  /** The `email` of the generate call. */
  email: string;
  eventIds: number[];
}

/**
 * The event's local day before `now` (its IANA zone, daylight saving included, else its fixed
 * offset): the instants it starts and ends at, its `YYYY-MM-DD` and the zone's name or offset.
 */
const dayBefore = (clock: EventClock, now: Date) => {
  const wall = eventWallClock(clock, now);
  const midnight = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  const zone = clock.time_zone?.trim() ?? '';
  return {
    from: eventLocalToInstant(clock, midnight - 86_400_000),
    to: eventLocalToInstant(clock, midnight),
    label: new Date(midnight - 86_400_000).toISOString().slice(0, 10),
    zone: zone && isValidTimeZone(zone) ? zone : formatUtcOffset(eventOffsetMinutes(clock, now)),
  };
};

/**
 * The printable sheet of kiosk cards (albums §2.3): 2 × 4 cards a page. A card shows, and its QR
 * encodes, exactly what the kiosk entry page accepts: the card code (the private id) and an attId
 * link with it. The album id stays off the card (a photographed card opens nothing outside a
 * kiosk); the album links are in the CSV.
 */
export const renderCardSheet = async (
  title: string,
  cards: { cardCode: string; scanLink: string }[],
  total: number,
): Promise<string> => {
  const cells: string[] = [];
  for (const card of cards) {
    const svg = await QRCode.toString(card.scanLink, {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 1,
    });
    cells.push(
      '<div class="card">' +
        `<div class="event">${escapeHtml(title)}</div>` +
        `<div class="qr">${svg}</div>` +
        '<div class="label">Card code</div>' +
        `<div class="code">${escapeHtml(card.cardCode)}</div>` +
        '<div class="hint">Scan or type it at the photo kiosk</div></div>',
    );
  }
  const note =
    total > cards.length
      ? `<p class="note">This sheet holds the first ${cards.length} of ${total} cards; the CSV file and the console's Attendees page list them all.</p>`
      : '';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<title>Attendee cards: ${escapeHtml(title)}</title><style>` +
    '@page{size:auto;margin:10mm}' +
    "body{margin:0;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#17171c}" +
    '.sheet{display:grid;grid-template-columns:repeat(2,1fr);gap:6mm;padding:6mm}' +
    '.card{border:1px dashed #b9b9c3;border-radius:3mm;padding:5mm;text-align:center;break-inside:avoid;height:60mm;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:1.5mm}' +
    '.card:nth-child(8n){break-after:page}' +
    '.event{font-size:10pt;font-weight:700;text-transform:uppercase;letter-spacing:.05em;color:#4f46e5}' +
    '.qr svg{width:32mm;height:32mm;display:block}' +
    '.label{font-size:8pt;color:#555;text-transform:uppercase;letter-spacing:.08em}' +
    '.code{font:700 16pt ui-monospace,Menlo,Consolas,monospace;letter-spacing:.12em}' +
    '.hint{font-size:9pt;color:#777}.note{margin:6mm;font-size:10pt;color:#555}' +
    `</style></head><body>${note}<div class="sheet">${cells.join('')}</div></body></html>`
  );
};

/**
 * The event's own operator mail: the generated attendee list sent to the
 * generate call's address (CSV of ids, card codes and album links, formula-safe; a printable
 * sheet of QR cards), and the daily report to `email_for_reports` (photos, attendees, sales,
 * prints of the previous UTC day and in total). Both once per fact (outbox dedupe key).
 */
export class EventMailService {
  constructor(
    private readonly deps: {
      events: EventRepository;
      rows: NotificationRepository;
      outbox: Pick<OutboxService, 'enqueueOnce'>;
      publicUrl: string;
      publicMediaUrl: (key: string) => string;
    },
  ) {}

  private albumUrl(card: { uid: string; urlPrefix: string | null }): string {
    const base = (card.urlPrefix ?? this.deps.publicUrl).replace(/\/+$/, '');
    return `${base}/?attId=${encodeURIComponent(formatAttendeeId(card.uid))}`;
  }

  /** Mails a generated list once (job `attendees.mail-list`); false when nothing was sent. */
  async mailAttendeeList(job: AttendeeListMailJob): Promise<boolean> {
    const events: EventRecord[] = [];
    for (const id of job.eventIds) {
      const event = await this.deps.events.findById(id);
      if (event) events.push(event);
    }
    const first = events[0];
    if (!first) return false;
    const total = await this.deps.rows.batchSize(job.batchId);
    if (total === 0) return false;
    const cards = (await this.deps.rows.batchCards(job.batchId, LIST_CSV_MAX)).map((card) => ({
      displayId: formatAttendeeId(card.uid),
      cardCode: card.privateId ? kioskCardText(card.privateId) : '',
      url: this.albumUrl(card),
      // The kiosk reads the card on the event's site, as the album links go there.
      scanLink: card.privateId
        ? kioskCardLink(card.urlPrefix ?? this.deps.publicUrl, card.privateId)
        : '',
    }));
    const title = events.map((e) => e.row.full_name || e.row.name).join(', ');
    const csv = csvText([
      ['Attendee ID', 'Card code', 'Album link'],
      ...cards.map((c) => [c.displayId, c.cardCode, c.url]),
    ]);
    // Generated attendees all have a private id; one without could not open a kiosk.
    const sheet = await renderCardSheet(
      title,
      cards.filter((c) => c.cardCode).slice(0, LIST_SHEET_MAX),
      total,
    );
    const count = `${total} ${total === 1 ? 'attendee card' : 'attendee cards'}`;
    const details = [
      `Cards: ${total}`,
      `In the CSV file: ${cards.length}${total > cards.length ? ` (the first ${cards.length}; the console's Attendees page lists all)` : ''}`,
      `On the printable QR sheet: ${Math.min(total, LIST_SHEET_MAX)}`,
    ];
    const rendered = renderMail(
      `Your ${count}: ${title}`,
      'The attendee list you generated is attached: a CSV file with each attendee ID, card code and album link, and a sheet of kiosk cards to print (open it in a browser and print): each card shows its code and a QR code that opens the guest’s album at the kiosk.',
      {},
      {
        eventTitle: first.row.full_name || first.row.name,
        unsubscribeUrl: null,
        brand: mailBrand(first.row, this.deps.publicMediaUrl),
        heading: `${count} ready`,
        details,
      },
    );
    const attachments: MailAttachment[] = [
      { filename: `attendees-${job.batchId}.csv`, contentType: 'text/csv', content: csv },
      { filename: `attendee-cards-${job.batchId}.html`, contentType: 'text/html', content: sheet },
    ];
    const stored = await this.deps.outbox.enqueueOnce({
      channel: 'mail',
      kind: 'attendee_list',
      eventId: first.row.id,
      recipient: job.email,
      sender: null,
      dedupeKey: `attendee_list:${job.batchId}:mail:${job.email.toLowerCase()}`,
      content: { ...rendered, attachments },
    });
    return stored !== null;
  }

  /**
   * The daily report (job `reports.daily`): to each event's `email_for_reports` addresses, the
   * figures of the event's local day before `now` (its time zone) and the totals. Once per event,
   * day and address. Answers how many reports were queued.
   */
  async sendDailyReports(now: Date): Promise<number> {
    let queued = 0;
    for (const target of await this.deps.rows.reportEvents()) {
      const event = await this.deps.events.findById(target.id);
      if (!event) continue;
      const row = event.row;
      const { from, to, label, zone } = dayBefore(row, now);
      const title = row.full_name || row.name;
      const f = await this.deps.rows.reportFigures(row.id, from, to);
      const details = [
        `Photos: ${f.photosDay} new, ${f.photosTotal} in all`,
        `Attendees: ${f.attendeesDay} new, ${f.attendeesTotal} in all`,
        `Sales: ${f.salesDay} (${salesAmount(f.salesByCurrencyDay, f.currency)}), ${f.salesTotal} in all`,
        `Prints: ${f.printsDay} printed, ${f.printsTotal} in all`,
      ];
      const rendered = renderMail(
        `Daily report ${label}: ${title}`,
        `What happened at ${title} on ${label} (${zone}).`,
        {},
        {
          eventTitle: title,
          unsubscribeUrl: null,
          brand: mailBrand(row, this.deps.publicMediaUrl),
          heading: `Daily report for ${label}`,
          details,
        },
      );
      const recipients = [
        ...new Set(
          target.emailForReports
            .split(',')
            .map((a) => a.trim())
            .filter((a) => isValidEmail(a)),
        ),
      ];
      for (const recipient of recipients) {
        const stored = await this.deps.outbox.enqueueOnce({
          channel: 'mail',
          kind: 'daily_report',
          eventId: row.id,
          recipient,
          sender: null,
          dedupeKey: `daily_report:${row.id}:${label}:mail:${recipient.toLowerCase()}`,
          content: rendered,
        });
        if (stored) queued += 1;
      }
    }
    return queued;
  }
}
