import { faceConsentVersion } from '@flashbulb/shared';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/app-error.ts';
import type { FaceSelfieRepository } from '../../src/repositories/faces/face-selfie.repository.ts';
import {
  ASSOCIATION_NOTICE_MINUTES,
  DEFAULT_SELFIE_DAYS,
  FaceSelfieService,
} from '../../src/services/faces/face-selfie.service.ts';
import type { StorageRepository } from '../../src/storage/storage.repository.ts';
import { TestClock } from '../helpers/test-app.ts';

/**
 * The selfie rules (consent version, expiry, association) with in-memory fakes: no app, no
 * database. faces/selfies.test.ts proves the same rules through the API; this one names each.
 */

const NOW = new Date('2026-06-01T12:00:00Z').getTime();
const MINUTE = 60_000;
const DAY = 86_400_000;

type Opts = { faceRecognitionText?: string; selfieExpirationMinutes?: number | null } & Record<
  string,
  unknown
>;
const event = (opts: Opts | null = {}, photo_auto_delete_days: number | null = null) => ({
  id: 7,
  opts: opts as never,
  photo_auto_delete_days,
});

/** A selfie repository in memory: what the service stores, and the rows it reads back. */
const fakeSelfies = () => {
  const added: Record<string, unknown>[] = [];
  const associating: { attendeeId: number | null; descriptor: number[] | null }[] = [];
  const notices: { eventId: number; attendeeId: number }[] = [];
  const claimed = new Set<number>();
  const repository = {
    add: (row: Record<string, unknown>) => {
      added.push(row);
      return Promise.resolve({ id: added.length, ...row });
    },
    associating: () => Promise.resolve(associating),
    claimNotice: (eventId: number, attendeeId: number) => {
      notices.push({ eventId, attendeeId });
      if (claimed.has(attendeeId)) return Promise.resolve(false);
      claimed.add(attendeeId);
      return Promise.resolve(true);
    },
  };
  return {
    added,
    associating,
    notices,
    repository: repository as unknown as FaceSelfieRepository,
  };
};

const service = (
  overrides: {
    attach?: (attendeeId: number, photoIds: number[]) => Promise<number>;
    notify?: (eventId: number, attendeeId: number, factKey: string) => Promise<void>;
  } = {},
) => {
  const selfies = fakeSelfies();
  const clock = new TestClock(NOW);
  const attached: { attendeeId: number; photoIds: number[]; source: string }[] = [];
  const notified: { eventId: number; attendeeId: number; factKey: string }[] = [];
  const faces = new FaceSelfieService({
    selfies: selfies.repository,
    storage: {} as StorageRepository,
    attendees: {
      attach: (attendeeId: number, photoIds: number[], source: string) => {
        attached.push({ attendeeId, photoIds, source });
        return overrides.attach ? overrides.attach(attendeeId, photoIds) : Promise.resolve(1);
      },
    },
    notifyAttendee: async (eventId, attendeeId, factKey) => {
      notified.push({ eventId, attendeeId, factKey });
      await overrides.notify?.(eventId, attendeeId, factKey);
    },
    clock,
    logger: pino({ level: 'silent' }),
  });
  return { faces, selfies, clock, attached, notified };
};

const refusal = (run: () => unknown): [string, string | undefined] | 'accepted' => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof AppError) return [error.key, error.field];
    throw error;
  }
};

describe('face consent', () => {
  it('the version names the text as shown: same text same version, any change another', () => {
    const { faces } = service();
    const text = 'We match your face to find your photos.';
    expect(faces.consentVersion(event({ faceRecognitionText: text }))).toBe(
      faceConsentVersion(text),
    );
    expect(faces.consentVersion(event({ faceRecognitionText: text }))).not.toBe(
      faces.consentVersion(event({ faceRecognitionText: `${text} ` })),
    );
    // No text (or no opts at all): the product's default text has one version.
    expect(faces.consentVersion(event(null))).toBe(faceConsentVersion(''));
    expect(faces.consentVersion(event({}))).toBe(faceConsentVersion(''));
    expect(faceConsentVersion('x')).toMatch(/^v1-[0-9a-f]{8}$/);
  });

  it('requires a version, refuses another text’s, and answers the current one', () => {
    const { faces } = service();
    const shown = event({ faceRecognitionText: 'Current text' });
    const current = faceConsentVersion('Current text');
    expect(refusal(() => faces.requireConsent(shown, undefined))).toEqual([
      'face_consent_required',
      'face_consent_version',
    ]);
    expect(refusal(() => faces.requireConsent(shown, ''))).toEqual([
      'face_consent_required',
      'face_consent_version',
    ]);
    expect(refusal(() => faces.requireConsent(shown, faceConsentVersion('Older text')))).toEqual([
      'face_consent_outdated',
      'face_consent_version',
    ]);
    expect(faces.requireConsent(shown, current)).toBe(current);
  });

  it('records the consent given, at the clock’s time, with its expiry and association', async () => {
    const { faces, selfies } = service();
    const consentVersion = faceConsentVersion('Text');
    await faces.record({
      event: event({ selfieExpirationMinutes: 60, selfieAssociationMinutes: 15 }),
      key: 'selfies/a.jpg',
      keyType: 'attendee',
      attendeeId: 3,
      consentVersion,
    });
    // Without an attendee there is nobody to associate new photos with.
    await faces.record({
      event: event({ selfieExpirationMinutes: 60, selfieAssociationMinutes: 15 }),
      key: 'selfies/b.jpg',
      keyType: 'public',
      attendeeId: null,
      consentVersion,
    });
    expect(selfies.added).toEqual([
      {
        eventId: 7,
        storageKey: 'selfies/a.jpg',
        keyType: 'attendee',
        attendeeId: 3,
        consentVersion,
        consentedAt: new Date(NOW),
        expiresAt: new Date(NOW + 60 * MINUTE),
        associateUntil: new Date(NOW + 15 * MINUTE),
      },
      expect.objectContaining({ storageKey: 'selfies/b.jpg', associateUntil: null }),
    ]);
    // An association time of 0 minutes: the selfie matches no later photo.
    await faces.record({
      event: event({ selfieAssociationMinutes: 0 }),
      key: 'selfies/c.jpg',
      keyType: 'attendee',
      attendeeId: 3,
      consentVersion,
    });
    expect(selfies.added[2]).toMatchObject({ storageKey: 'selfies/c.jpg', associateUntil: null });
  });
});

describe('selfie expiry', () => {
  const at = new Date(NOW);
  it('the selfie expiration, at the latest the photo retention, else the default days', () => {
    const { faces } = service();
    expect(faces.expiresAt(event({ selfieExpirationMinutes: 90 }), at)).toEqual(
      new Date(NOW + 90 * MINUTE),
    );
    expect(faces.expiresAt(event({}, 3), at)).toEqual(new Date(NOW + 3 * DAY));
    // Both set: the earlier wins, whichever it is.
    expect(faces.expiresAt(event({ selfieExpirationMinutes: 90 }, 3), at)).toEqual(
      new Date(NOW + 90 * MINUTE),
    );
    expect(faces.expiresAt(event({ selfieExpirationMinutes: 10 * 24 * 60 }, 2), at)).toEqual(
      new Date(NOW + 2 * DAY),
    );
    expect(faces.expiresAt(event({}), at)).toEqual(new Date(NOW + DEFAULT_SELFIE_DAYS * DAY));
    expect(faces.expiresAt(event({ selfieExpirationMinutes: null }), at)).toEqual(
      new Date(NOW + DEFAULT_SELFIE_DAYS * DAY),
    );
  });
});

describe('selfie association', () => {
  const face = (value: number) => ({ embedding: [value, 0, 0] });

  it('attaches the photo to attendees whose selfie matches a face, and tells each once', async () => {
    const { faces, selfies, attached, notified } = service();
    selfies.associating.push(
      { attendeeId: 1, descriptor: [0.1, 0, 0] }, // distance 0.1 to the face: a match
      { attendeeId: 2, descriptor: [5, 0, 0] }, // far from every face
      { attendeeId: 3, descriptor: null }, // not described yet
      { attendeeId: null, descriptor: [0, 0, 0] }, // a key's selfie: no album to fill
    );
    const told = await faces.associate({ id: 40, eventId: 7 }, 'model', [face(0), face(9)]);
    expect(attached).toEqual([{ attendeeId: 1, photoIds: [40], source: 'face' }]);
    const bucket = Math.floor(NOW / (ASSOCIATION_NOTICE_MINUTES * MINUTE));
    expect(notified).toEqual([{ eventId: 7, attendeeId: 1, factKey: `faces:${bucket}` }]);
    expect(told).toEqual([1]);
    // A second photo within the notice time: attached again, but no second message.
    const again = await faces.associate({ id: 41, eventId: 7 }, 'model', [face(0)]);
    expect(attached).toHaveLength(2);
    expect(again).toEqual([]);
    expect(notified).toHaveLength(1);
  });

  it('does nothing for a photo without faces, and tells nobody when nothing new was added', async () => {
    const { faces, selfies, attached, notified } = service({ attach: () => Promise.resolve(0) });
    selfies.associating.push({ attendeeId: 1, descriptor: [0, 0, 0] });
    expect(await faces.associate({ id: 40, eventId: 7 }, 'model', [])).toEqual([]);
    expect(attached).toEqual([]);
    expect(await faces.associate({ id: 40, eventId: 7 }, 'model', [face(0)])).toEqual([]);
    expect(attached).toHaveLength(1);
    expect(selfies.notices).toEqual([]);
    expect(notified).toEqual([]);
  });

  it('a message that fails does not fail the association', async () => {
    const { faces, selfies, attached } = service({
      notify: () => Promise.reject(new Error('smtp down')),
    });
    selfies.associating.push({ attendeeId: 1, descriptor: [0, 0, 0] });
    expect(await faces.associate({ id: 40, eventId: 7 }, 'model', [face(0)])).toEqual([]);
    expect(attached).toHaveLength(1);
  });
});
