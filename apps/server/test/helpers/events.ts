import {
  attendeeKeyOf,
  endpoints,
  normaliseAttendeeId,
  type BodyOf,
  type FlashbulbEvent,
} from '@flashbulb/shared';
import { afterAll, beforeAll } from 'vitest';
import { createAndSignInUser, Role, signedInAdmin, type SignedIn } from './identity.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/** Two organisations, each with an admin and an event owner, and the super user. */
export interface EventWorld {
  superUser: SignedIn;
  orgA: { id: number };
  orgB: { id: number };
  adminA: SignedIn;
  ownerA: SignedIn;
  adminB: SignedIn;
  ownerB: SignedIn;
}

export const createEventWorld = async (t: TestApp): Promise<EventWorld> => {
  const superUser = await signedInAdmin(t);
  const auth = { authorization: superUser.authorization };
  const orgA = await t.ok(endpoints.createOrganisation, { name: 'Alpha Events' }, auth);
  const orgB = await t.ok(endpoints.createOrganisation, { name: 'Beta Booths' }, auth);
  const adminA = await createAndSignInUser(
    t,
    superUser,
    'admin-a@example.com',
    Role.ADMIN,
    orgA.id,
  );
  const ownerA = await createAndSignInUser(
    t,
    superUser,
    'owner-a@example.com',
    Role.EVENT_OWNER,
    orgA.id,
  );
  const adminB = await createAndSignInUser(
    t,
    superUser,
    'admin-b@example.com',
    Role.ADMIN,
    orgB.id,
  );
  const ownerB = await createAndSignInUser(
    t,
    superUser,
    'owner-b@example.com',
    Role.EVENT_OWNER,
    orgB.id,
  );
  return { superUser, orgA, orgB, adminA, ownerA, adminB, ownerB };
};

/**
 * One app (with `env`) and its EventWorld for the whole test file: made before the first test,
 * closed after the last; `use` hands both to the file.
 */
export const eventWorldPerFile = (
  use: (t: TestApp, w: EventWorld) => void,
  env: Record<string, string> = {},
): void => {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(env);
    use(app, await createEventWorld(app));
  });
  afterAll(async () => {
    await app?.close();
  });
};

/** The `authorization` of a signed-in user, for `t.call`/`t.ok`. */
export const as = (user: { authorization: string }) => ({ authorization: user.authorization });

/**
 * An API key of `user` as an `authorization` (API keys outlive access tokens, so tests that move
 * the clock by hours keep working).
 */
export const apiKeyAuth = async (
  t: TestApp,
  user: { authorization: string },
): Promise<{ authorization: string }> => {
  const key = await t.ok(endpoints.createApiKey, { name: 'tests' }, user);
  return { authorization: key.api_key };
};

/**
 * The photo tests' starting point: the event world, an admin API key of organisation A (API keys
 * outlive access tokens when a test moves the clock) and one robot of organisation A with its key.
 */
export const createRobotWorld = async (t: TestApp) => {
  const world = await createEventWorld(t);
  const admin = await apiKeyAuth(t, world.adminA);
  const created = await t.ok(
    endpoints.createRobot,
    { organisation_id: world.orgA.id, name: 'Booth' },
    admin,
  );
  return {
    world,
    admin,
    robotId: created.id,
    robot: { key_type: 'robot' as const, key_value: created.api_key },
  };
};

export const validEventBody = (
  overrides: Partial<BodyOf<typeof endpoints.createEvent>> = {},
): BodyOf<typeof endpoints.createEvent> => ({
  full_name: 'Summer Gala',
  email_from_address: 'photos@gala.example',
  opts: { description: 'The summer gala' },
  ...overrides,
});

export const createEvent = async (
  t: TestApp,
  by: SignedIn,
  overrides: Partial<BodyOf<typeof endpoints.createEvent>> = {},
): Promise<FlashbulbEvent> =>
  t.ok(endpoints.createEvent, validEventBody(overrides), { authorization: by.authorization });

export const errorOf = (response: { statusCode: number; body: unknown }) => ({
  status: response.statusCode,
  ...(response.body as { error?: { message_key: string; field?: string } }).error,
});

/** The event as stored now (read as the super user), to prove a refused call changed nothing. */
export const readEvent = async (
  t: TestApp,
  superUser: SignedIn,
  name: string,
): Promise<FlashbulbEvent> => {
  const [event] = await t.ok(
    endpoints.eventFullData,
    { event_name: name },
    { authorization: superUser.authorization },
  );
  if (!event) throw new Error(`no event ${name}`);
  return event;
};

/**
 * The album key of an attendee as its links carry it: a booth-chosen id opens its album only with
 * the private id its upload gave it (`<id>~<private id>`); a generated id is its own key.
 */
export const attendeeAlbumKey = async (t: TestApp, uid: string): Promise<string> => {
  const { rows } = await t.database.executeSql(
    'select uid, private_id, custom_uid from attendees where uid = $1',
    [normaliseAttendeeId(uid)],
  );
  const row = rows[0] as { uid: string; private_id: string | null; custom_uid: number } | undefined;
  if (!row) throw new Error(`no attendee ${uid}`);
  return attendeeKeyOf({ uid: row.uid, privateId: row.private_id, customUid: row.custom_uid });
};
