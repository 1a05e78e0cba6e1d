import { randomUUID } from 'node:crypto';
import {
  defaultTemplateLayout,
  endpoints,
  type EndpointName,
  type ErrorKey,
  type FlashbulbEvent,
} from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, type EventWorld } from '../helpers/events.ts';
import { makeJpeg, insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The permission matrix (docs/domains/access.md): EVERY call of the contract ×
 * every kind of caller, with the exact answer. A refused call must change nothing: a fingerprint
 * of the database is taken before and after each run of refused calls. A new call without a row
 * fails the first test, so nobody adds a call without deciding who may make it.
 */

const COLUMNS = [
  'super',
  'adminA',
  'ownerA',
  'ownerB',
  'adminB',
  'eventOwnerKeyA',
  'privateKeyA',
  'publicKeyA',
  'attendeeKeyA',
  'robotKeyA',
  'eventOwnerKeyB',
  'privateKeyB',
  'publicKeyB',
  'attendeeKeyB',
  'robotKeyB',
  'none',
] as const;
type Column = (typeof COLUMNS)[number];
const USERS = ['super', 'adminA', 'ownerA', 'ownerB', 'adminB'] as const;
const KEYS_A = [
  'eventOwnerKeyA',
  'privateKeyA',
  'publicKeyA',
  'attendeeKeyA',
  'robotKeyA',
] as const;
const KEYS_B = [
  'eventOwnerKeyB',
  'privateKeyB',
  'publicKeyB',
  'attendeeKeyB',
  'robotKeyB',
] as const;
type KeyColumn = (typeof KEYS_A)[number] | (typeof KEYS_B)[number];
/**
 * The organiser's kiosk of each event: its private key with the event's display token (only the
 * kiosk links carry it). Unless a row says otherwise it answers as the private key alone does.
 */
const KIOSKS = ['kioskA', 'kioskB'] as const;
type KioskColumn = (typeof KIOSKS)[number];
const KIOSK_FALLBACK: Record<KioskColumn, Column> = {
  kioskA: 'privateKeyA',
  kioskB: 'privateKeyB',
};

type Outcome = 'ok' | readonly [ErrorKey, number];
type Expectation = Record<Column, Outcome> & Partial<Record<KioskColumn, Outcome>>;

const OK = 'ok' as const;
const UNAUTHORIZED = ['unauthorized_user', 401] as const;
const INVALID_KEY = ['invalid_key', 401] as const;
/** A robot's right key naming another event than the one its robot feeds. */
const ROBOT_OTHER_EVENT = ['robot_other_event', 403] as const;
const EVENT_NOT_FOUND = ['event_not_found', 404] as const;
const NOT_FOUND = ['not_found', 404] as const;
const FORBIDDEN = ['forbidden', 403] as const;
const ATTENDEE_NOT_FOUND = ['invalid_attendee_id', 404] as const;
const INVALID_UNLOCK_CODE = ['invalid_unlock_code', 400] as const;
const INVALID_VALUE = ['invalid_value', 400] as const;
const FACE_OFF = ['face_recognition_off', 400] as const;
const INVALID_URL = ['invalid_url', 400] as const;
const PRINTING_NOT_ACTIVE = ['printing_not_active', 400] as const;
const USER_NOT_FOUND = ['user_not_found', 404] as const;
const ROBOT_NOT_FOUND = ['robot_not_found', 404] as const;
const DOWNLOAD_OFF = ['download_not_allowed', 403] as const;
const KIOSK_DELETE_OFF = ['kiosk_photo_delete_off', 403] as const;
const UNAVAILABLE = ['payment_provider_unavailable', 409] as const;
const NOT_OFFERED = ['payment_method_not_offered', 409] as const;
const LEADS_OFF = ['leads_not_collected', 400] as const;
const GUEST_UPLOAD_OFF = ['photo_upload_disabled', 403] as const;
const ATTENDEE_UPLOAD_OFF = ['attendee_photo_upload_disabled', 403] as const;

const fill = (columns: readonly Column[], outcome: Outcome): Partial<Expectation> =>
  Object.fromEntries(columns.map((c) => [c, outcome]));

/** Every column the same (calls that need no credentials). */
const everyone = (outcome: Outcome): Expectation => fill(COLUMNS, outcome) as Expectation;

/**
 * An operator call (`auth: 'owner'`): keys and nobody are not signed in. Users of this event's
 * organisation get `ours` (the owner `owner`), those of the other organisation `theirs`.
 */
const operators = (
  ours: Outcome,
  theirs: Outcome,
  owner: Outcome = ours,
  superUser: Outcome = ours,
): Expectation => ({
  super: superUser,
  adminA: ours,
  ownerA: owner,
  ownerB: theirs,
  adminB: theirs,
  ...(fill([...KEYS_A, ...KEYS_B, 'none'], UNAUTHORIZED) as Record<KeyColumn | 'none', Outcome>),
});

/** A public twin (`auth: 'key'`): without key fields the body itself is refused. */
const keyed = (keys: Record<KeyColumn, Outcome>): Expectation => ({
  ...(fill([...USERS, 'none'], INVALID_KEY) as Record<(typeof USERS)[number] | 'none', Outcome>),
  ...keys,
});

const keysA = (
  eventOwner: Outcome,
  privateKey: Outcome,
  publicKey: Outcome,
  attendee: Outcome,
  robot: Outcome,
) => ({
  eventOwnerKeyA: eventOwner,
  privateKeyA: privateKey,
  publicKeyA: publicKey,
  attendeeKeyA: attendee,
  robotKeyA: robot,
});
const keysB = (
  eventOwner: Outcome,
  privateKey: Outcome,
  publicKey: Outcome,
  attendee: Outcome,
  robot: Outcome,
) => ({
  eventOwnerKeyB: eventOwner,
  privateKeyB: privateKey,
  publicKeyB: publicKey,
  attendeeKeyB: attendee,
  robotKeyB: robot,
});

let t: TestApp;
let w: EventWorld;
let auth: Record<(typeof USERS)[number], { authorization: string }>;
let eventA: FlashbulbEvent;
let eventB: FlashbulbEvent;
let robotA: { id: number; api_key: string };
let robotB: { id: number; api_key: string };
let attendeeA: string;
let attendeeB: string;
/** A second card of organisation A (kiosk grouping). */
let attendeeA2: string;
let photoA: { id: number; uid: string };
let jpeg: Buffer;

const insertPhoto = (event: FlashbulbEvent, attendeeUid: string | null = null) =>
  insertReadyPhoto(t, event, attendeeUid);

/** A profile photo of attendee A as its upload grant would have stored it. */
const profileUpload = async (): Promise<string> => {
  const key = `profile-photos/tmp/${attendeeA}/${randomUUID()}/me.jpg`;
  await t.app.container.storage.put(key, jpeg, 'image/jpeg');
  return key;
};

/** Bookkeeping that every authenticated call touches (API key last use, sign-in throttle). */
const UNFINGERPRINTED = new Set([
  'api_keys',
  'auth_sessions',
  'login_throttle',
  // per-address request counters of the rate limiter (every request writes them)
  'rate_limit_hits',
  '__drizzle_migrations',
]);
let fingerprintSql = '';

/** An md5 over every row of every table of the product (computed in SQL). */
const fingerprint = async (): Promise<string> => {
  const { rows } = await t.database.executeSql(fingerprintSql, []);
  return String(rows[0]!.fp);
};

beforeAll(async () => {
  // No worker: jobs (derivatives, mail) would change rows behind the fingerprints' backs.
  t = await createTestApp({}, { worker: false });
  w = await createEventWorld(t);
  auth = {
    super: await apiKeyAuth(t, w.superUser),
    adminA: await apiKeyAuth(t, w.adminA),
    ownerA: await apiKeyAuth(t, w.ownerA),
    ownerB: await apiKeyAuth(t, w.ownerB),
    adminB: await apiKeyAuth(t, w.adminB),
  };
  robotA = await t.ok(
    endpoints.createRobot,
    { organisation_id: w.orgA.id, name: 'Robot A' },
    auth.super,
  );
  robotB = await t.ok(
    endpoints.createRobot,
    { organisation_id: w.orgB.id, name: 'Robot B' },
    auth.super,
  );
  // Event A takes guests' own photos (both settings on), event B none (the defaults).
  eventA = await createEvent(t, w.ownerA, {
    full_name: 'Event A',
    robot_id_array: [robotA.id],
    opts: { description: 'The summer gala', enablePhotoUpl: 1, enableAttendeePhotoUpl: 1 },
  });
  eventB = await createEvent(t, w.ownerB, { full_name: 'Event B', robot_id_array: [robotB.id] });
  attendeeA = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [eventA.id] },
      auth.adminA,
    )
  ).attendees[0]!.uid;
  attendeeA2 = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [eventA.id] },
      auth.adminA,
    )
  ).attendees[0]!.uid;
  attendeeB = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [eventB.id] },
      auth.adminB,
    )
  ).attendees[0]!.uid;
  photoA = await insertPhoto(eventA, attendeeA);
  await insertPhoto(eventB, attendeeB);
  jpeg = await makeJpeg({ width: 64, height: 48 });
  await t.app.container.storage.put(`stock-images/${eventA.name}/stock.jpg`, jpeg, 'image/jpeg');

  const { rows } = await t.database.executeSql(
    `select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    [],
  );
  const tables = rows.map((r) => String(r.table_name)).filter((name) => !UNFINGERPRINTED.has(name));
  expect(tables).toContain('events');
  expect(tables).toContain('attendees');
  // In a PL/pgSQL function its query is planned once per connection, not at each of the ≈ 1,500
  // fingerprints (planning 55 subqueries was ≈ 3/4 of a fingerprint's CPU on an empty database).
  const query = `md5(${tables
    .map(
      (name) =>
        `coalesce((select string_agg(md5(x::text), '' order by md5(x::text)) from "${name}" x), '')`,
    )
    .join(' || ')})`;
  await t.database.executeSql(
    `create function test_fingerprint() returns text language plpgsql as $f$
       begin return ${query}; end $f$`,
    [],
  );
  fingerprintSql = 'select test_fingerprint() as fp';
  // The fingerprint sees a change and its undoing (a stale or constant one would pass everything).
  const before = await fingerprint();
  const rename = `update organisations set name = $2 where id = $1`;
  const named = await t.database.executeSql('select name from organisations where id = $1', [
    w.orgA.id,
  ]);
  const name = String(named.rows[0]!.name);
  await t.database.executeSql(rename, [w.orgA.id, 'Renamed for the fingerprint']);
  expect(await fingerprint()).not.toBe(before);
  await t.database.executeSql(rename, [w.orgA.id, name]);
  expect(await fingerprint()).toBe(before);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const keyOf = (column: KeyColumn | KioskColumn): Record<string, string> => {
  const mine = column.endsWith('A');
  const event = mine ? eventA : eventB;
  switch (column.slice(0, -1)) {
    case 'kiosk':
      return {
        key_type: 'private',
        key_value: event.private_api_key,
        display: event.display_token,
      };
    case 'eventOwnerKey':
      return { key_type: 'event_owner', key_value: event.owner_api_key };
    case 'privateKey':
      return { key_type: 'private', key_value: event.private_api_key };
    case 'publicKey':
      return { key_type: 'public', key_value: event.public_api_key };
    case 'attendeeKey':
      return { key_type: 'attendee', key_value: mine ? attendeeA : attendeeB };
    default:
      return { key_type: 'robot', key_value: mine ? robotA.api_key : robotB.api_key };
  }
};

/** A fresh event owner of organisation A, made by the super user (a target to change). */
const userOfA = async (): Promise<number> =>
  (
    await t.ok(
      endpoints.createUser,
      {
        email: `target-${randomUUID().slice(0, 8)}@example.com`,
        role: 3,
        organisation_id: w.orgA.id,
        temporary_password: 'temporary-pass-1234',
      },
      auth.super,
    )
  ).id;

/** This event as it is now (its updated_date moves with every save). */
const currentA = async () =>
  (await t.ok(endpoints.eventFullData, { event_name: eventA.name }, auth.super))[0]!;

interface Row {
  /** The body for one column (built afresh: disposable things are made per call). */
  body: (column: Column) => Record<string, unknown> | Promise<Record<string, unknown>>;
  expect: Expectation;
}

const rows: Record<EndpointName, Row> = {
  // ---- identity: no event, the same answer whoever asks ---------------------------------------
  // One unknown name per caller: the lockout counts failures per name (lockout.test.ts).
  signIn: {
    body: (column) => ({ username: `nobody-${column}@example.com`, password: 'not the password' }),
    expect: everyone(['user_name_or_password_incorrect', 400]),
  },
  respondToChallenge: {
    body: () => ({ challenge_name: 'MFA_SETUP', session: 'x'.repeat(40), code: '123456' }),
    expect: everyone(['invalid_session', 400]),
  },
  // Two-factor changes need a signed-in session (or a sign-in challenge): an API key is not one.
  associateSoftwareToken: { body: () => ({}), expect: everyone(UNAUTHORIZED) },
  verifySoftwareToken: { body: () => ({ code: '000000' }), expect: everyone(UNAUTHORIZED) },
  setMfaPreference: {
    body: () => ({ software_token_mfa_settings: { enabled: false, preferred_mfa: false } }),
    expect: operators(FORBIDDEN, FORBIDDEN),
  },
  // New recovery codes need a signed-in session, like a new authenticator: an API key is not one.
  regenerateRecoveryCodes: {
    body: () => ({ password: 'not the password' }),
    expect: everyone(UNAUTHORIZED),
  },
  // Each user reads their own count (none made: 0 of 0); keys and nobody are not signed in.
  recoveryCodesStatus: { body: () => ({}), expect: operators(OK, OK) },
  forgotPassword: { body: () => ({ username: 'nobody@example.com' }), expect: everyone(OK) },
  confirmForgotPassword: {
    body: (column) => ({
      username: `nobody-${column}@example.com`,
      code: '123456',
      new_password: 'a long enough new password 123',
    }),
    expect: everyone(['code_mismatch', 400]),
  },
  // A common new password is refused before the current one is checked (no lockout counted).
  changePassword: {
    body: () => ({ previous_password: 'not the password', proposed_password: 'password' }),
    expect: operators(['invalid_password', 400], ['invalid_password', 400]),
  },
  refresh: { body: () => ({ refresh_token: 'not-a-token' }), expect: everyone(UNAUTHORIZED) },
  // Signing out with an API key ends no session; without credentials it answers ok too.
  signOut: { body: () => ({}), expect: everyone(OK) },
  setupStatus: { body: () => ({}), expect: everyone(OK) },
  createFirstAdmin: {
    body: () => ({ email: 'second@example.com', password: 'a long enough new password 123' }),
    expect: everyone(['setup_already_done', 409]),
  },
  myInfo: { body: () => ({}), expect: operators(OK, OK) },
  createUser: {
    body: () => ({
      email: `new-${randomUUID().slice(0, 8)}@example.com`,
      role: 3,
      organisation_id: w.orgA.id,
      temporary_password: 'temporary-pass-1234',
    }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  createApiKey: { body: () => ({ name: 'matrix' }), expect: operators(OK, OK) },
  listApiKeys: { body: () => ({}), expect: operators(OK, OK) },
  deleteApiKey: {
    // Somebody else's key: nobody may delete it through this call.
    body: async () => ({
      id: (await t.ok(endpoints.createApiKey, { name: 'victim' }, { ...auth.adminA })).id,
    }),
    expect: operators(
      OK,
      ['api_key_not_found', 404],
      ['api_key_not_found', 404],
      ['api_key_not_found', 404],
    ),
  },
  listOrganisations: { body: () => ({}), expect: operators(OK, OK) },
  createOrganisation: {
    body: () => ({ name: `Org ${randomUUID().slice(0, 8)}` }),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
  },
  renameOrganisation: {
    body: () => ({ id: w.orgA.id, name: `Org A ${randomUUID().slice(0, 8)}` }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  // Users: event owners manage nobody; another organisation's admin finds nobody.
  listUsers: {
    body: () => ({ organisation_id: w.orgA.id }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  updateUser: {
    body: async () => ({ id: await userOfA(), disabled: true, role: 3 }),
    expect: { ...operators(OK, USER_NOT_FOUND, FORBIDDEN), ownerB: FORBIDDEN },
  },
  resetUserMfa: {
    body: async () => ({ id: await userOfA() }),
    expect: { ...operators(OK, USER_NOT_FOUND, FORBIDDEN), ownerB: FORBIDDEN },
  },

  // ---- events ----------------------------------------------------------------------------------
  createEvent: {
    body: () => ({
      full_name: 'Matrix event',
      email_from_address: 'photos@matrix.example',
      opts: { description: 'Matrix' },
      organisation_id: w.orgA.id,
    }),
    expect: { ...operators(OK, FORBIDDEN) },
  },
  updateEvent: {
    body: async () => {
      const current = await currentA();
      return { id: eventA.id, event_last_updated_date: current.updated_date, hash_tag: '#m' };
    },
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  deleteEvent: {
    body: async () => ({ event_id: (await createEvent(t, w.ownerA, { full_name: 'Bin' })).id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  eventBasicList: { body: () => ({}), expect: operators(OK, OK) },
  eventFullData: {
    body: () => ({ event_name: eventA.name }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  publicEventFullData: {
    body: () => ({ event_name: eventA.name }),
    expect: keyed({
      ...keysA(OK, OK, OK, OK, OK),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, ROBOT_OTHER_EVENT),
    }),
  },
  secureProps: {
    body: () => ({ event_name: eventA.name }),
    expect: operators(OK, EVENT_NOT_FOUND, FORBIDDEN),
  },
  verifyFromAddress: {
    body: () => ({ token: 'x'.repeat(30) }),
    expect: everyone(['verification_link_invalid', 400]),
  },
  robotList: { body: () => ({ organisation_id: w.orgA.id }), expect: operators(OK, FORBIDDEN) },
  createRobot: {
    body: () => ({ organisation_id: w.orgA.id, name: 'Another robot' }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  // A robot of its own per call: the columns' robot keys must keep working.
  regenerateRobotKey: {
    body: async () => ({
      id: (await t.ok(endpoints.createRobot, { organisation_id: w.orgA.id, name: 'R' }, auth.super))
        .id,
    }),
    expect: operators(OK, ROBOT_NOT_FOUND, FORBIDDEN),
  },
  imageProcessList: {
    body: () => ({ organisation_id: w.orgA.id }),
    expect: operators(OK, FORBIDDEN),
  },
  autoPrintProcesses: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  pptList: { body: () => ({ organisation_id: w.orgA.id }), expect: operators(OK, FORBIDDEN) },
  deletePpt: {
    body: async () => ({
      id: (
        await t.app.container.repositories.printTemplates.create({
          name: 'Disposable',
          organisationId: w.orgA.id,
          placeholderCounts: 1,
        })
      ).id,
    }),
    // Another organisation's template does not exist as far as its operators know.
    expect: operators(OK, ['template_not_found', 404], FORBIDDEN),
  },
  // Private templates of organisation A: its admins (and super users) change them.
  pptCreate: {
    body: () => ({
      name: 'Two up',
      organisation_id: w.orgA.id,
      layout: defaultTemplateLayout(),
    }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  pptUpdate: {
    body: async () => ({
      id: (
        await t.app.container.repositories.printTemplates.create({
          name: 'Editable',
          organisationId: w.orgA.id,
          placeholderCounts: 1,
        })
      ).id,
      name: 'Edited',
      layout: defaultTemplateLayout(),
    }),
    expect: operators(OK, ['template_not_found', 404], FORBIDDEN),
  },
  pptRetrieve: {
    body: async () => ({
      id: (
        await t.app.container.repositories.printTemplates.create({
          name: 'Readable',
          organisationId: w.orgA.id,
          placeholderCounts: 2,
        })
      ).id,
    }),
    expect: operators(OK, ['template_not_found', 404]),
  },
  stockImageList: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  createIgnoredFace: {
    body: () => ({ event_id: eventA.id, full_path: 'faces/staff.jpg' }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  listIgnoredFaces: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  deleteIgnoredFaces: {
    body: async () => ({
      event_id: eventA.id,
      ids: [
        (
          await t.ok(
            endpoints.createIgnoredFace,
            { event_id: eventA.id, full_path: 'faces/bin.jpg' },
            auth.ownerA,
          )
        ).id,
      ],
    }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  shareBucketUploadAccess: {
    body: () => ({ relativeFilePath: 'webapp-etc/logo.png', organisation_id: w.orgA.id }),
    expect: operators(OK, FORBIDDEN),
  },
  shareBucketInvalidateCache: { body: () => ({}), expect: operators(OK, OK) },
  stockImageUploadAccess: {
    body: () => ({ event_name: eventA.name, file_name: 'new.jpg' }),
    expect: keyed({
      ...keysA(OK, ['forbidden', 403], FORBIDDEN, FORBIDDEN, FORBIDDEN),
      ...keysB(INVALID_KEY, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN),
    }),
  },
  thumbnailForStockImage: {
    body: () => ({ event_name: eventA.name, image_url: `stock-images/${eventA.name}/stock.jpg` }),
    expect: keyed({
      ...keysA(OK, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN),
      ...keysB(INVALID_KEY, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN),
    }),
  },
  ignoredFaceUploadAccess: {
    body: () => ({ event_name: eventA.name, file_name: 'face.jpg' }),
    expect: keyed({
      ...keysA(OK, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN),
      ...keysB(INVALID_KEY, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN),
    }),
  },

  // ---- photos ----------------------------------------------------------------------------------
  photoUploadAccess: {
    body: () => ({ event_name: eventA.name, file_name: 'a.jpg', content_type: 'image/jpeg' }),
    expect: {
      ...operators(OK, EVENT_NOT_FOUND),
      ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, OK),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, ROBOT_OTHER_EVENT),
      none: UNAUTHORIZED,
    },
  },
  // Guests' own photos: the public key and attendee keys, each while its event setting is on
  // (A: on, B: off); every other key, the kiosk and operators are no guests here.
  guestUploadAccess: {
    body: (column) => ({
      event_name: column.endsWith('B') ? eventB.name : eventA.name,
      file_name: 'a.jpg',
      content_type: 'image/jpeg',
    }),
    expect: keyed({
      ...keysA(INVALID_KEY, INVALID_KEY, OK, OK, INVALID_KEY),
      ...keysB(INVALID_KEY, INVALID_KEY, GUEST_UPLOAD_OFF, ATTENDEE_UPLOAD_OFF, INVALID_KEY),
    }),
  },
  guestUploadComplete: {
    body: async (column) => {
      const mine = !column.endsWith('B');
      const album = column.startsWith('attendeeKey') ? `att_${mine ? attendeeA : attendeeB}/` : '';
      const key = `tmp/${(mine ? eventA : eventB).name}/${randomUUID()}/guest/${album}a.jpg`;
      await t.app.container.storage.put(key, jpeg, 'image/jpeg');
      return { key };
    },
    expect: keyed({
      ...keysA(INVALID_KEY, INVALID_KEY, OK, OK, INVALID_KEY),
      ...keysB(INVALID_KEY, INVALID_KEY, GUEST_UPLOAD_OFF, ATTENDEE_UPLOAD_OFF, INVALID_KEY),
    }),
  },
  photoUploadComplete: {
    body: async () => {
      const key = `tmp/${eventA.name}/${randomUUID()}/upload.jpg`;
      await t.app.container.storage.put(key, jpeg, 'image/jpeg');
      return { key };
    },
    expect: {
      ...operators(OK, EVENT_NOT_FOUND),
      ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, OK),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, ROBOT_OTHER_EVENT),
      none: UNAUTHORIZED,
    },
  },
  ownerPhotoList: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  publicPhotoList: {
    body: () => ({ event_id: eventA.id }),
    expect: keyed({
      ...keysA(OK, OK, OK, OK, OK),
      ...keysB(EVENT_NOT_FOUND, EVENT_NOT_FOUND, EVENT_NOT_FOUND, EVENT_NOT_FOUND, EVENT_NOT_FOUND),
    }),
  },
  photoCountInfo: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  previewProtectionStatus: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  previewProtectionRestart: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  keyPhotoCountInfo: {
    body: () => ({}),
    expect: keyed({
      ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, OK),
      ...keysB(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, OK),
    }),
  },
  deletePhoto: {
    body: async () => ({ photo_id: (await insertPhoto(eventA)).id }),
    expect: operators(OK, NOT_FOUND),
  },
  deletePhotoList: {
    body: async () => ({ photo_id_array: [(await insertPhoto(eventA)).id], delete_reason: 'm' }),
    expect: operators(OK, NOT_FOUND),
  },
  updatePhoto: { body: () => ({ id: photoA.id, category: 'c' }), expect: operators(OK, NOT_FOUND) },
  updatePhotoList: {
    body: () => ({ id_array: [photoA.id], category: 'c' }),
    expect: operators(OK, NOT_FOUND),
  },
  publicUpdatePhotoList: {
    body: () => ({ id_array: [photoA.id], category: 'c' }),
    expect: keyed({
      ...keysA(OK, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN),
      ...keysB(NOT_FOUND, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN),
    }),
  },
  curationUpdate: {
    body: () => ({ original_photo_id: photoA.id }),
    expect: {
      ...operators(OK, NOT_FOUND),
      ...keysA(OK, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND),
      ...keysB(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND),
      none: UNAUTHORIZED,
    },
  },
  curationReprocess: {
    body: async () => ({ photo_id: (await insertPhoto(eventA)).id }),
    expect: {
      ...operators(OK, NOT_FOUND),
      ...keysA(OK, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND),
      ...keysB(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND),
      none: UNAUTHORIZED,
    },
  },
  robotWhoami: {
    body: () => ({}),
    expect: keyed({
      ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, OK),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, OK),
    }),
  },
  robotActivityList: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  createActivity: {
    body: () => ({ robot_id: robotA.id, photo_id: photoA.id, activity_name: 'printed' }),
    expect: keyed({
      ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, OK),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
    }),
  },
  bulkCreateActivity: {
    body: () => ({ robot_id: robotA.id, photo_id_array: [photoA.id], activity_name: 'printed' }),
    expect: keyed({
      ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, OK),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
    }),
  },
  moderationQueue: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  moderationDecide: {
    body: async () => {
      const photo = await insertPhoto(eventA);
      await t.app.container.repositories.photos.update(photo.id, { moderation: 'pending' });
      return { event_id: eventA.id, photo_id_array: [photo.id], decision: 'approve' };
    },
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  moderationLog: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },

  // ---- albums ----------------------------------------------------------------------------------
  generateShareLink: {
    body: () => ({ photo_uid: photoA.uid }),
    expect: {
      ...operators(OK, NOT_FOUND),
      ...keysA(OK, OK, OK, OK, OK),
      ...keysB(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND),
      none: UNAUTHORIZED,
    },
  },
  trackShare: {
    body: () => ({ photo_uid: photoA.uid }),
    expect: keyed({
      ...keysA(OK, OK, OK, OK, OK),
      ...keysB(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    }),
  },
  sendMiniAlbumLink: {
    body: () => ({
      event_id: eventA.id,
      email_to_address_array: ['guest@example.com'],
      photo_uid_array: [photoA.uid],
    }),
    expect: {
      ...operators(OK, EVENT_NOT_FOUND),
      ...keysA(OK, OK, OK, OK, OK),
      ...keysB(EVENT_NOT_FOUND, EVENT_NOT_FOUND, EVENT_NOT_FOUND, EVENT_NOT_FOUND, EVENT_NOT_FOUND),
      none: UNAUTHORIZED,
    },
  },
  retrieveMiniAlbum: { body: () => ({ token: 'no-such-album' }), expect: everyone(NOT_FOUND) },
  retrieveInstantPhoto: { body: () => ({ instant: 'ZZZZ-ABCDEF' }), expect: everyone(NOT_FOUND) },
  // Event A is free: its keys may take photo A; keys of event B never reach it.
  createAlbumDownload: {
    body: () => ({ photo_id_array: [photoA.id] }),
    expect: keyed({
      ...keysA(OK, OK, OK, OK, OK),
      ...keysB(DOWNLOAD_OFF, DOWNLOAD_OFF, DOWNLOAD_OFF, DOWNLOAD_OFF, DOWNLOAD_OFF),
    }),
  },
  // The console album's Download: operators of event A (photo A is in it); a key is no operator.
  ownerAlbumDownload: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  // A token no job made: every key of an event is told not_found (a real one: download.test).
  albumDownloadStatus: {
    body: () => ({ status_token: 'v1.no-such-zip' }),
    expect: keyed({
      ...keysA(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND),
      ...keysB(NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    }),
  },

  // ---- attendees -------------------------------------------------------------------------------
  generateAttendeeList: {
    body: () => ({ attendee_count: 1, event_id_array: [eventA.id] }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  attendeeList: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  attendeesByPhotos: {
    body: () => ({ photo_uids: [photoA.uid] }),
    expect: operators(OK, NOT_FOUND),
  },
  ownerAttachPhotos: {
    body: () => ({ event_id: eventA.id, attendee_uid: attendeeA, photo_uid_array: [photoA.uid] }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  unlinkPhotos: {
    body: () => ({
      event_id_array: [eventA.id],
      attendee_uid: attendeeA,
      photo_uid_array: [photoA.uid],
    }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  lockAttendee: {
    // Reopening an open album: allowed callers change nothing either.
    body: () => ({ event_id: eventA.id, attendee_uid: attendeeA, is_locked: 0 }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  exportAttendee: {
    body: () => ({ attendee_uid: attendeeA }),
    expect: operators(OK, ATTENDEE_NOT_FOUND),
  },
  privacyRequestList: {
    // Read-only; each admin sees their own organisation's log, event owners none.
    body: () => ({}),
    expect: { ...operators(OK, OK, FORBIDDEN, OK), ownerB: FORBIDDEN },
  },
  eraseAttendee: {
    // A fresh attendee of event A per caller: an erasure cannot be repeated.
    body: async () => ({
      attendee_uid: (
        await t.ok(
          endpoints.generateAttendeeList,
          { attendee_count: 1, event_id_array: [eventA.id] },
          auth.adminA,
        )
      ).attendees[0]!.uid,
    }),
    expect: operators(OK, ATTENDEE_NOT_FOUND),
  },
  retrieveAttendee: {
    body: () => ({ organisation_id: w.orgA.id }),
    expect: keyed({
      ...keysA(['invalid_key', 401], INVALID_KEY, INVALID_KEY, OK, INVALID_KEY),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, ATTENDEE_NOT_FOUND, INVALID_KEY),
    }),
  },
  checkAttendeeUid: { body: () => ({ attendee_uid: attendeeA }), expect: everyone(OK) },
  // Favourites: the attendee key alone, within its own album (attendee B's album lacks photo A).
  attendeeFavourites: {
    body: () => ({}),
    expect: keyed({
      ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, OK, INVALID_KEY),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, OK, INVALID_KEY),
    }),
  },
  setAttendeeFavourite: {
    body: () => ({ photo_id_array: [photoA.id], favourite: 1 }),
    expect: keyed({
      ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, OK, INVALID_KEY),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
    }),
  },
  attachPhotosByKey: {
    body: () => ({ attendee_uid: attendeeA, photo_uid_array: [photoA.uid] }),
    expect: {
      ...keyed({
        ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(ATTENDEE_NOT_FOUND, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  attachPhotosByQrScan: {
    body: () => ({ qr_text: attendeeA, photo_uid_array: [photoA.uid] }),
    expect: {
      ...keyed({
        ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(ATTENDEE_NOT_FOUND, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  updateAttendeeByKiosk: {
    body: () => ({ attendee_uid: attendeeA, email_address: 'kiosk@example.com' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  checkAndGroupAttendees: {
    body: () => ({ attendee_uid_list: [attendeeA, attendeeA2] }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  // An unknown card answers valid false to any kiosk key; other keys are refused.
  checkKioskCard: {
    body: () => ({ card_code: 'https://x.example/?attId=ZZZZ-ZZZZ' }),
    expect: {
      ...keyed({
        ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: OK,
    },
  },
  // The staff PIN: only the kiosk asks; these events have none set.
  checkKioskStaffPin: {
    body: () => ({ pin: '1234' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: ['kiosk_staff_pin_not_set', 409],
      kioskB: ['kiosk_staff_pin_not_set', 409],
    },
  },
  // ---- kiosk media and pass codes ---------------------------------------------------
  // The kiosk (private key + display token) of the attendee's event, or the event-owner key where
  // a row says so; a private key alone is a guest's link. B's kiosks do not know A's cards.
  profilePhotoUploadAccess: {
    body: () => ({ attendee_uid: attendeeA, file_name: 'me.png' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  createProfilePhoto: {
    body: async () => ({ attendee_uid: attendeeA, key: await profileUpload() }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  listProfilePhotos: {
    body: () => ({ attendee_uid: attendeeA }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  deleteProfilePhoto: {
    body: async () => ({
      attendee_uid: attendeeA,
      id: (
        await t.ok(endpoints.createProfilePhoto, {
          key_type: 'private',
          key_value: eventA.private_api_key,
          display: eventA.display_token,
          attendee_uid: attendeeA,
          key: await profileUpload(),
        })
      ).id,
    }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  createCustomPhoto: {
    body: () => ({ file_name: 'shot.jpg', keep_origin_name: 1 }),
    expect: {
      ...keyed({
        ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: OK,
    },
  },
  createAttendeeCustomPhoto: {
    body: () => ({ file_name: 'shot.jpg', attendee_uid: attendeeA }),
    expect: {
      ...keyed({
        ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(ATTENDEE_NOT_FOUND, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  // An upload for event A: only A's kiosks may finish it.
  completeCustomPhoto: {
    body: async () => {
      const key = `kioskMedia/${eventA.name}/${randomUUID()}/shot.jpg`;
      await t.app.container.storage.put(key, jpeg, 'image/jpeg');
      return { key };
    },
    expect: {
      ...keyed({
        ...keysA(OK, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: NOT_FOUND,
    },
  },
  // Event A does not allow kiosk deletes: A's kiosks are told so before any photo is read.
  kioskDeletePhoto: {
    body: () => ({ attendee_uid: attendeeA, photo_uid: photoA.uid }),
    expect: {
      ...keyed({
        ...keysA(KIOSK_DELETE_OFF, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(ATTENDEE_NOT_FOUND, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: KIOSK_DELETE_OFF,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  retrievePassCodeList: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  updatePassCode: {
    body: () => ({ event_id: eventA.id, first_name: 'Ann', last_name: 'Lee' }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  deletePassCode: {
    body: async () => ({
      event_id: eventA.id,
      code: (
        await t.ok(
          endpoints.updatePassCode,
          { event_id: eventA.id, first_name: 'Bin', last_name: 'Row' },
          auth.ownerA,
        )
      ).pass_code.code,
    }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  // Event A has face recognition off: operators who reach it are told so before any photo is read.
  searchByFace: {
    body: () => ({
      event_id: eventA.id,
      photo_url_list: [`events/${eventA.name}/photos/uid_${photoA.uid}_uid/preview.jpg`],
    }),
    expect: operators(['face_recognition_off', 400], EVENT_NOT_FOUND),
  },
  // Key twin: kiosk, web-app and attendee keys search their own event; a selfie of event A is no
  // reference for event B's keys (invalid_url before anything is read).
  keySearchByFace: {
    body: () => ({ photo_url_list: [`selfies/${eventA.name}/0a.jpg`] }),
    expect: keyed({
      ...keysA(INVALID_KEY, FACE_OFF, FACE_OFF, FACE_OFF, INVALID_KEY),
      ...keysB(INVALID_KEY, INVALID_URL, INVALID_URL, INVALID_URL, INVALID_KEY),
    }),
  },
  // Adding found photos to an album: the attendee's own key only (face recognition is off on A).
  attachFoundPhotos: {
    body: () => ({
      photo_url_list: [`selfies/${eventA.name}/0a.jpg`],
      photo_uid_array: [photoA.uid],
    }),
    expect: keyed({
      ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, FACE_OFF, INVALID_KEY),
      ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_URL, INVALID_KEY),
    }),
  },
  selfieUploadAccess: {
    body: () => ({ content_type: 'image/jpeg' }),
    expect: keyed({
      ...keysA(INVALID_KEY, FACE_OFF, FACE_OFF, FACE_OFF, INVALID_KEY),
      ...keysB(INVALID_KEY, FACE_OFF, FACE_OFF, FACE_OFF, INVALID_KEY),
    }),
  },
  faceConsent: {
    body: () => ({}),
    expect: keyed({
      ...keysA(INVALID_KEY, OK, OK, OK, INVALID_KEY),
      ...keysB(INVALID_KEY, OK, OK, OK, INVALID_KEY),
    }),
  },
  faceDataInfo: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  deleteFaceData: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  // ---- paid albums ------------------------------------------------------------------
  // Event A has no unlock codes: its kiosks hear the code is wrong, and nothing changes.
  attendeeUnlock: {
    body: () => ({ attendee_uid: attendeeA, unlock_code: 'ZZZZ' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: INVALID_UNLOCK_CODE,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  // Event A is free and has no pricing buttons: its kiosks and its attendee hear the button is
  // not valid, and nothing is created. Other events' keys do not reach attendee A.
  createQrPayment: {
    body: () => ({ attendee_uid: attendeeA, pricing_button_index: 0, client_request_id: 'm' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_VALUE, INVALID_KEY, INVALID_KEY, INVALID_VALUE, INVALID_KEY),
        ...keysB(ATTENDEE_NOT_FOUND, INVALID_KEY, INVALID_KEY, ATTENDEE_NOT_FOUND, INVALID_KEY),
      }),
      kioskA: INVALID_VALUE,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  checkQrStatus: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  disableQrLink: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  // Read only: kiosks and the attendee see event A's (empty: a free event) buttons.
  pricingButtonList: {
    body: () => ({ attendee_uid: attendeeA }),
    expect: {
      ...keyed({
        ...keysA(OK, INVALID_KEY, INVALID_KEY, OK, INVALID_KEY),
        ...keysB(ATTENDEE_NOT_FOUND, INVALID_KEY, INVALID_KEY, ATTENDEE_NOT_FOUND, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  // Buying from a public or private album: read only, each key prices its own (free) event.
  albumPurchasePricing: {
    body: () => ({}),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, OK, OK, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, OK, OK, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: OK,
    },
  },
  // Event A is free: photo A cannot be bought (and no buyer's album is made); event B's keys do
  // not see photo A.
  albumPurchaseCreate: {
    body: () => ({ pricing_button_index: 0, photo_uids: [photoA.uid], client_request_id: 'm' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_VALUE, INVALID_VALUE, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, NOT_FOUND, NOT_FOUND, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: INVALID_VALUE,
      kioskB: NOT_FOUND,
    },
  },
  // PayPal's card form on those albums: this app sets up no PayPal, so a caller the album sells
  // to hears `payment_provider_unavailable` before anything is made; a kiosk's methods hold no
  // PayPal card form.
  albumPurchasePayPalOrder: {
    body: () => ({ pricing_button_index: 0, photo_uids: [photoA.uid], client_request_id: 'm' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, UNAVAILABLE, UNAVAILABLE, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, UNAVAILABLE, UNAVAILABLE, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: NOT_OFFERED,
      kioskB: NOT_OFFERED,
    },
  },
  albumPurchasePayPalCapture: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, NOT_FOUND, NOT_FOUND, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, NOT_FOUND, NOT_FOUND, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  albumPurchaseStatus: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, NOT_FOUND, NOT_FOUND, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, NOT_FOUND, NOT_FOUND, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  albumPurchaseCancel: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, NOT_FOUND, NOT_FOUND, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, NOT_FOUND, NOT_FOUND, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  attendeeUnlockAndPrint: {
    body: () => ({ attendee_uid: attendeeA, unlock_code: 'ZZZZ', photo_uid_array: [photoA.uid] }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: INVALID_UNLOCK_CODE,
      kioskB: ATTENDEE_NOT_FOUND,
    },
  },
  ownerUnlockAndPrint: {
    body: () => ({ event_id: eventA.id, attendee_uid: attendeeA, photo_uid_array: [photoA.uid] }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  orderList: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  refundPayment: {
    body: () => ({ event_id: eventA.id, payment_id: 'pay_nobody' }),
    expect: operators(NOT_FOUND, EVENT_NOT_FOUND),
  },
  // ---- payment providers -------------------------------------------------------------
  // Any signed-in operator may talk to Square with their own token; a blank token is refused
  // before Square is called (so no row here reaches a provider).
  squareLocations: {
    body: () => ({ access_token: ' ' }),
    expect: operators(['square_access_token_required', 400], ['square_access_token_required', 400]),
  },
  // Organisation payment connections and card readers: the reach of the secure
  // fields (super users, the organisation's admins); no row reaches a provider.
  paymentConnectionList: {
    body: () => ({ organisation_id: w.orgA.id }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  paymentConnectionSave: {
    body: () => ({ organisation_id: w.orgA.id, provider: 'stripe', secret: 'sk_test_matrix0000' }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  paymentConnectionTest: {
    body: () => ({ organisation_id: w.orgA.id, provider: 'shopify' }),
    expect: operators(['payment_connection_not_found', 404], FORBIDDEN, FORBIDDEN),
  },
  paymentConnectionDelete: {
    body: () => ({ organisation_id: w.orgA.id, provider: 'square' }),
    expect: operators(['payment_connection_not_found', 404], FORBIDDEN, FORBIDDEN),
  },
  cardReaderList: {
    body: () => ({ organisation_id: w.orgA.id }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  cardReaderSave: {
    body: () => ({
      organisation_id: w.orgA.id,
      name: 'Desk',
      location_id: 'L1',
      location_name: 'Tent',
      device_code_id: 'matrix-code',
      device_id: '',
    }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  cardReaderCheck: {
    body: () => ({ organisation_id: w.orgA.id, id: 2_000_000 }),
    expect: operators(['card_reader_not_found', 404], FORBIDDEN, FORBIDDEN),
  },
  cardReaderDelete: {
    body: () => ({ organisation_id: w.orgA.id, id: 2_000_000 }),
    expect: operators(['card_reader_not_found', 404], FORBIDDEN, FORBIDDEN),
  },
  // Outgoing webhooks (operations): the organisation's admins and super users. The address is a
  // public IP literal (no DNS); no fact is published, so nothing is delivered.
  // ---- insight ------------------------------------------------------------------------
  eventInsight: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  // The organisation's money and reach: its admins and super users, not its event owners.
  organisationInsight: {
    body: () => ({ organisation_id: w.orgA.id }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  // Any key that reads an album counts its own event's view.
  insightTrack: {
    body: () => ({ kind: 'view' }),
    expect: keyed({ ...keysA(OK, OK, OK, OK, OK), ...keysB(OK, OK, OK, OK, OK) }),
  },
  webhookList: {
    body: () => ({ organisation_id: w.orgA.id }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  webhookCreate: {
    body: () => ({
      organisation_id: w.orgA.id,
      url: 'https://203.0.113.10/hook',
      event_types: ['photo.ready'],
    }),
    expect: operators(OK, FORBIDDEN, FORBIDDEN),
  },
  webhookSetEnabled: {
    body: () => ({ id: 2_000_000, enabled: 0 }),
    expect: operators(['webhook_not_found', 404], ['webhook_not_found', 404]),
  },
  webhookDelete: {
    body: () => ({ id: 2_000_000 }),
    expect: operators(['webhook_not_found', 404], ['webhook_not_found', 404]),
  },
  webhookDeliveries: {
    body: () => ({ id: 2_000_000 }),
    expect: operators(['webhook_not_found', 404], ['webhook_not_found', 404]),
  },
  webhookReplay: {
    body: () => ({ delivery_id: 2_000_000 }),
    expect: operators(['webhook_not_found', 404], ['webhook_not_found', 404]),
  },
  // Backups and the storage integrity check: super users only (every organisation's data).
  backupCreate: {
    body: () => ({}),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
  },
  backupList: {
    body: () => ({}),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
  },
  integrityCheck: {
    body: () => ({}),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
  },
  integrityRepair: {
    body: () => ({ key: 'archive/nothing-here.jpg', action: 'delete' }),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, ['integrity_object_unknown', 404]),
  },
  integrityReports: {
    body: () => ({}),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
  },
  backupRestore: {
    // Only the server's own backups: a folder of the caller's choosing is not one.
    body: () => ({ path: '/nowhere/flashbulb-backup-1' }),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, ['backup_not_found', 404]),
  },
  backupScheduleGet: {
    body: () => ({}),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
  },
  backupScheduleSet: {
    body: () => ({ schedule: { kind: 'off' }, keep: 7 }),
    expect: operators(FORBIDDEN, FORBIDDEN, FORBIDDEN, OK),
  },
  squareCreateDeviceCode: {
    body: () => ({ access_token: 'EAAA-token', name: ' ', location_id: 'L1' }),
    expect: operators(['square_device_name_required', 400], ['square_device_name_required', 400]),
  },
  squareGetDeviceCode: {
    // An empty device-code id is ours to refuse (400) before Square is asked.
    body: () => ({ access_token: 'EAAA-token', id: '' }),
    expect: operators(INVALID_VALUE, INVALID_VALUE),
  },
  // PayPal card checkout and the payment terminal: the kiosks' and the attendee's keys
  // of an event, as for the QR checkout. This app configures neither provider, so a caller who
  // passes the access check hears `payment_provider_unavailable` and nothing is created; payments
  // of nobody are `not_found` before the provider is looked at.
  paypalSettings: {
    body: () => ({}),
    expect: {
      ...keyed({
        ...keysA(OK, INVALID_KEY, INVALID_KEY, OK, INVALID_KEY),
        ...keysB(OK, INVALID_KEY, INVALID_KEY, OK, INVALID_KEY),
      }),
      kioskA: OK,
      kioskB: OK,
    },
  },
  paypalCreateOrder: {
    body: () => ({ attendee_uid: attendeeA, pricing_button_index: 0, client_request_id: 'm' }),
    expect: {
      ...keyed({
        ...keysA(UNAVAILABLE, INVALID_KEY, INVALID_KEY, UNAVAILABLE, INVALID_KEY),
        ...keysB(UNAVAILABLE, INVALID_KEY, INVALID_KEY, UNAVAILABLE, INVALID_KEY),
      }),
      kioskA: UNAVAILABLE,
      kioskB: UNAVAILABLE,
    },
  },
  paypalCaptureOrder: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  terminalPay: {
    body: () => ({ attendee_uid: attendeeA, pricing_button_index: 0, client_request_id: 'm' }),
    expect: {
      ...keyed({
        ...keysA(UNAVAILABLE, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(UNAVAILABLE, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: UNAVAILABLE,
      kioskB: UNAVAILABLE,
    },
  },
  terminalCheckStatus: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  terminalCancel: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  // Square card reader at the kiosk (never a guest's key, the attendee's own included): no event
  // here carries a Square token.
  squareInitiatePayment: {
    body: () => ({
      attendee_uid: attendeeA,
      pricing_button_index: 0,
      client_request_id: 'm',
      device_id: 'device:1',
    }),
    expect: {
      ...keyed({
        ...keysA(UNAVAILABLE, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(UNAVAILABLE, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: UNAVAILABLE,
      kioskB: UNAVAILABLE,
    },
  },
  squareCheckoutStatus: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  squareCancelCheckout: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  // Shopify draft orders: no event here has a shop.
  shopifyCreateDraftOrder: {
    body: () => ({ attendee_uid: attendeeA, pricing_button_index: 0, client_request_id: 'm' }),
    expect: {
      ...keyed({
        ...keysA(UNAVAILABLE, INVALID_KEY, INVALID_KEY, UNAVAILABLE, INVALID_KEY),
        ...keysB(UNAVAILABLE, INVALID_KEY, INVALID_KEY, UNAVAILABLE, INVALID_KEY),
      }),
      kioskA: UNAVAILABLE,
      kioskB: UNAVAILABLE,
    },
  },
  shopifyBuyFromKiosk: {
    body: () => ({ attendee_uid: attendeeA, pricing_button_index: 0, client_request_id: 'm' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: UNAVAILABLE,
      kioskB: UNAVAILABLE,
    },
  },
  shopifyBuyFromKioskSelfCheckout: {
    body: () => ({ attendee_uid: attendeeA, pricing_button_index: 0, client_request_id: 'm' }),
    expect: {
      ...keyed({
        ...keysA(UNAVAILABLE, INVALID_KEY, INVALID_KEY, UNAVAILABLE, INVALID_KEY),
        ...keysB(UNAVAILABLE, INVALID_KEY, INVALID_KEY, UNAVAILABLE, INVALID_KEY),
      }),
      kioskA: UNAVAILABLE,
      kioskB: UNAVAILABLE,
    },
  },
  shopifyCompleteDraftOrder: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  shopifyCompleteDraftOrderSelfCheckout: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  shopifySendReceipt: {
    body: () => ({ payment_id: 'pay_nobody', email: 'guest@example.com' }),
    expect: {
      ...keyed({
        ...keysA(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
        ...keysB(NOT_FOUND, INVALID_KEY, INVALID_KEY, NOT_FOUND, INVALID_KEY),
      }),
      kioskA: NOT_FOUND,
      kioskB: NOT_FOUND,
    },
  },
  // The event's outbox: those who manage the event.
  outboxList: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  outboxResend: {
    body: () => ({ event_id: eventA.id, message_id: 999_999 }),
    expect: operators(NOT_FOUND, EVENT_NOT_FOUND),
  },
  // The web-app page: public by event code; registration by e-mail creates an album.
  webappEvent: { body: () => ({ event_name: eventA.name }), expect: everyone(OK) },
  webappRegister: {
    body: (column) => ({ event_name: eventA.name, email: `webapp-${column}@example.com` }),
    expect: everyone(OK),
  },
  // Leads: any key of an event reaches its gate (the matrix's events collect none, so
  // a permitted caller hears that and nothing is stored); those who manage the event read them.
  leadSubmit: {
    body: () => ({ full_name: 'Guest', email: 'lead@example.com' }),
    expect: keyed({
      ...keysA(LEADS_OFF, LEADS_OFF, LEADS_OFF, LEADS_OFF, LEADS_OFF),
      ...keysB(LEADS_OFF, LEADS_OFF, LEADS_OFF, LEADS_OFF, LEADS_OFF),
    }),
  },
  leadList: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  leadExport: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  leadDelete: {
    body: () => ({ event_id: eventA.id, lead_id_array: [999_999] }),
    expect: operators(NOT_FOUND, EVENT_NOT_FOUND),
  },
  // printing: the matrix's events have printing off, so a permitted caller hears that
  // (after the access check) and nothing is queued.
  printWithQueue: {
    body: () => ({ event_id: eventA.id, printable_photo_uid_array: [photoA.uid] }),
    expect: operators(PRINTING_NOT_ACTIVE, EVENT_NOT_FOUND),
  },
  publicPrintWithQueue: {
    body: () => ({ printable_photo_uid_array: [photoA.uid] }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: PRINTING_NOT_ACTIVE,
      kioskB: PRINTING_NOT_ACTIVE,
    },
  },
  printStory: {
    body: () => ({ event_id: eventA.id, printable_photo_uid_array: [photoA.uid] }),
    expect: operators(PRINTING_NOT_ACTIVE, EVENT_NOT_FOUND),
  },
  publicPrintStory: {
    body: () => ({ printable_photo_uid_array: [photoA.uid] }),
    expect: {
      ...keyed({
        ...keysA(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
        ...keysB(INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY, INVALID_KEY),
      }),
      kioskA: PRINTING_NOT_ACTIVE,
      kioskB: PRINTING_NOT_ACTIVE,
    },
  },
  printJobList: { body: () => ({ event_id: eventA.id }), expect: operators(OK, EVENT_NOT_FOUND) },
  // The print desk: another event's or an unknown job is not found once access is granted.
  printJobCancel: {
    body: () => ({ event_id: eventA.id, print_job_id: 999999 }),
    expect: operators(NOT_FOUND, EVENT_NOT_FOUND),
  },
  printJobReprint: {
    body: () => ({ event_id: eventA.id, print_job_id: 999999, reason: 'smudged' }),
    expect: operators(NOT_FOUND, EVENT_NOT_FOUND),
  },
  printPoolPause: {
    body: () => ({ event_id: eventA.id, printer_pool_name: 'Default', paused: 0 }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  // 'Default' is always one of the event's pools
  printStationCreate: {
    body: () => ({ event_id: eventA.id, printer_pool_name: 'Default', name: 'Booth 1' }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  printStationList: {
    body: () => ({ event_id: eventA.id }),
    expect: operators(OK, EVENT_NOT_FOUND),
  },
  printStationRevoke: {
    body: () => ({ event_id: eventA.id, id: 999999 }),
    expect: operators(NOT_FOUND, EVENT_NOT_FOUND),
  },
  // The agent's calls carry a station key in the body, nothing else opens them.
  printAgentLease: {
    body: () => ({ station_key: 'fbps_' + 'x'.repeat(32), printers: [] }),
    expect: everyone(INVALID_KEY),
  },
  printAgentReport: {
    body: () => ({
      station_key: 'fbps_' + 'x'.repeat(32),
      job_id: 1,
      lease_token: 'x',
      state: 'printed',
      printer: null,
      error: null,
    }),
    expect: everyone(INVALID_KEY),
  },
  // The test provider's form: no key; an unknown payment is not found whoever asks.
  testProviderPay: {
    body: () => ({ payment_id: 'pay_nobody', card_number: '4242 4242 4242 4242' }),
    expect: everyone(NOT_FOUND),
  },
  testProviderCheckout: {
    body: () => ({ payment_id: 'pay_nobody' }),
    expect: everyone(NOT_FOUND),
  },
};

describe('permission matrix', () => {
  it('has a row for every call of the contract, with an answer for every caller', () => {
    expect(Object.keys(rows).sort()).toEqual(Object.keys(endpoints).sort());
    for (const [name, row] of Object.entries(rows))
      expect(
        Object.keys(row.expect)
          .filter((c) => !(KIOSKS as readonly string[]).includes(c))
          .sort(),
        name,
      ).toEqual([...COLUMNS].sort());
  });

  it('answers every call as the table says, and a refused call changes nothing', async () => {
    const mismatches: string[] = [];
    // Refused calls are checked in runs: the fingerprint before the first of a run and after its
    // last (an md5 over every row of every table; two per refused call were 55 % of the file's
    // time). A row any refused call of the run changed makes the two differ, and the mismatch
    // names the run's calls. A run ends before a call the table lets through and before a body
    // that makes disposable things: those change the database on purpose.
    let current: string | undefined; // the fingerprint as of now, when known
    let runBefore: string | undefined;
    let run: string[] = [];
    const endRun = async (): Promise<void> => {
      if (run.length === 0) return;
      current = await fingerprint();
      if (current !== runBefore)
        mismatches.push(`refused, but one of them changed the database: ${run.join(', ')}`);
      run = [];
    };
    for (const name of Object.keys(endpoints) as EndpointName[]) {
      const endpoint = endpoints[name];
      const row = rows[name];
      // An async body makes its disposable things in the database before the call.
      const makesThings = row.body.constructor.name === 'AsyncFunction';
      for (const column of [...COLUMNS, ...KIOSKS]) {
        const kiosk = (KIOSKS as readonly string[]).includes(column);
        const expected = kiosk
          ? (row.expect[column as KioskColumn] ?? row.expect[KIOSK_FALLBACK[column as KioskColumn]])
          : row.expect[column as Column];
        if (makesThings || expected === OK) await endRun();
        if (makesThings) current = undefined;
        const made = row.body(kiosk ? KIOSK_FALLBACK[column as KioskColumn] : (column as Column));
        if (made instanceof Promise && !makesThings)
          throw new Error(`${name}: a body that makes things must be an async function`);
        const body = await made;
        const isUser = (USERS as readonly string[]).includes(column);
        const credentials =
          column === 'none' || isUser ? {} : keyOf(column as KeyColumn | KioskColumn);
        if (expected !== OK && run.length === 0) runBefore = current ?? (await fingerprint());
        const response = await t.call(
          endpoint,
          { ...body, ...credentials },
          isUser ? auth[column as (typeof USERS)[number]] : {},
        );
        const envelope = response.body as {
          status: string;
          error?: { message_key: ErrorKey };
        };
        const got: Outcome =
          envelope.status === 'ok' && response.statusCode === 200
            ? OK
            : [envelope.error?.message_key ?? 'Internal Error', response.statusCode];
        if (JSON.stringify(got) !== JSON.stringify(expected))
          mismatches.push(
            `${name} × ${column}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`,
          );
        current = undefined;
        if (expected !== OK) run.push(`${name} × ${column} (${JSON.stringify(got)})`);
      }
    }
    await endRun();
    expect(mismatches).toEqual([]);
  }, 900_000);
});
