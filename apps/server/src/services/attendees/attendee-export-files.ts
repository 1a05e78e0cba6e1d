import { Readable } from 'node:stream';
import { csvText } from '../../lib/csv.ts';
import { uniqueNames, type ZipEntry } from '../../lib/zip-stream.ts';
import type { AttendeeData } from '../../repositories/attendees/attendee-privacy.repository.ts';
import type { AttendeeRecord } from '../../repositories/attendees/attendee.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { tableOf } from './privacy-rules.ts';

type Cell = string | number | null;
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * What a privacy export holds, in order: the attendee, then their photos, leads, consents,
 * messages and orders as JSON and CSV, then the files (photos, selfies, profile photos), each
 * opened only when the zip reaches it.
 */
export function* exportEntries(
  data: AttendeeData,
  record: AttendeeRecord,
  storage: Pick<StorageRepository, 'get'>,
  now: Date,
): Iterable<ZipEntry> {
  const text = (name: string, body: string): ZipEntry => ({
    name,
    modified: now,
    open: () => Promise.resolve(Readable.from([Buffer.from(body, 'utf8')])),
  });
  const eventName = new Map(data.events.map((e) => [e.id, e.name]));
  const table = (name: string, rows: Record<string, Cell>[]): ZipEntry[] => [
    text(`${name}.json`, `${JSON.stringify(rows, null, 2)}\n`),
    text(`${name}.csv`, rows.length > 0 ? csvText(tableOf(rows)) : ''),
  ];
  const photoNames = uniqueNames();
  const photoFiles = data.photos.map((photo) => ({
    photo,
    name: `photos/${photoNames(`${eventName.get(photo.eventId) ?? photo.eventId}_${photo.fileName || photo.uid}`)}`,
  }));
  yield text(
    'attendee.json',
    `${JSON.stringify(
      {
        uid: record.row.uid,
        email: record.row.email,
        is_prepaid: record.row.isPrepaid,
        unlocked: record.row.unlocked,
        created_date: iso(record.row.createdAt),
        expires_date: iso(record.row.expiresAt),
        events: data.events.map((e) => ({ name: e.name, full_name: e.fullName })),
      },
      null,
      2,
    )}\n`,
  );
  yield* table(
    'photos',
    photoFiles.map(({ photo, name }) => ({
      file: name,
      uid: photo.uid,
      event: eventName.get(photo.eventId) ?? null,
      how: data.attachedIds.has(photo.id) ? 'attached' : 'uploaded_with_id',
      created_date: iso(photo.createdAt),
    })),
  );
  yield* table(
    'leads',
    data.leads.map((l) => ({
      event: eventName.get(l.eventId) ?? null,
      full_name: l.fullName,
      email: l.email,
      company_name: l.companyName,
      phone: l.phone,
      source: l.source,
      created_date: iso(l.createdAt),
      updated_date: iso(l.updatedAt),
    })),
  );
  yield* table('consents', [
    ...data.leads
      .filter((l) => l.consentedAt)
      .map((l) => ({
        kind: 'lead',
        event: eventName.get(l.eventId) ?? null,
        version: l.consentVersion,
        text: l.consentText,
        consented_date: iso(l.consentedAt),
      })),
    ...data.selfies.map((s) => ({
      kind: 'face_recognition',
      event: eventName.get(s.eventId) ?? null,
      version: s.consentVersion,
      text: null,
      consented_date: iso(s.consentedAt),
    })),
  ]);
  yield* table(
    'messages',
    data.messages.map((m) => ({
      channel: m.channel,
      kind: m.kind,
      event: m.eventId !== null ? (eventName.get(m.eventId) ?? null) : null,
      recipient: m.recipient,
      subject: 'subject' in m.content ? m.content.subject : null,
      text: 'text' in m.content ? m.content.text : 'body' in m.content ? m.content.body : null,
      status: m.status,
      created_date: iso(m.createdAt),
      sent_date: iso(m.sentAt),
    })),
  );
  yield* table(
    'orders',
    data.orders.map(({ order, payments }) => ({
      event: eventName.get(order.eventId) ?? null,
      button: order.buttonText,
      amount: order.amount,
      currency: order.currency,
      status: order.status,
      digitals: order.items.digitals === 'all' ? 'all' : order.items.digitals.join(' '),
      prints: order.items.prints.join(' '),
      payments: payments.map((p) => `${p.publicId}:${p.provider}:${p.status}`).join(' '),
      created_date: iso(order.createdAt),
      paid_date: iso(order.paidAt),
    })),
  );
  const file = (name: string, key: string, modified: Date): ZipEntry => ({
    name,
    modified,
    open: async () => {
      const object = await storage.get(key);
      if (!object) throw new Error('stored object missing');
      return object.body;
    },
  });
  for (const { photo, name } of photoFiles) yield file(name, photo.storageKey, photo.createdAt);
  const selfieNames = uniqueNames();
  for (const selfie of data.selfies)
    yield file(
      `selfies/${selfieNames(selfie.storageKey.split('/').pop() ?? 'selfie.jpg')}`,
      selfie.storageKey,
      selfie.createdAt,
    );
  const profileNames = uniqueNames();
  for (const profile of data.profilePhotos)
    yield file(
      `profile-photos/${profileNames(profile.fileName)}`,
      profile.storageKey,
      profile.createdAt,
    );
}
