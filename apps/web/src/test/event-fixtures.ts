import {
  defaultEventSettings,
  type BasicEvent,
  type FlashbulbEvent,
  type User,
} from '@flashbulb/shared';
import { adminUser, installFakeApi, tokens, type FakeReply } from './fake-api.ts';

/** A stored event as the server answers it: valid settings, so Update saves without changes. */
export const storedEvent = (overrides: Partial<FlashbulbEvent> = {}): FlashbulbEvent => ({
  ...defaultEventSettings(),
  id: 7,
  name: 'ABCD',
  organisation_id: 3,
  owner_api_key: 'owner-key',
  private_api_key: 'private-key',
  public_api_key: 'public-key-7',
  display_token: 'display-token-7',
  full_name: 'Summer Gala',
  email_from_address: 'photos@acme.example',
  email_from_address_verified: true,
  unlocked: 0,
  secure_fields_set: [],
  updated_date: '2026-11-20T10:00:00.000Z',
  created_date: '2026-11-01T10:00:00.000Z',
  ...overrides,
  opts: {
    ...defaultEventSettings().opts,
    ...overrides.opts,
    description: overrides.opts?.description || 'Our summer party',
  },
});

export const basicOf = (event: FlashbulbEvent): BasicEvent => ({
  id: event.id,
  name: event.name,
  full_name: event.full_name,
  organisation_id: event.organisation_id,
  is_visible: event.is_visible,
  logo_full_path: event.logo_full_path,
  public_api_key: event.public_api_key,
  private_api_key: event.private_api_key,
  display_token: event.display_token,
  collect_leads: event.collect_leads,
  updated_date: event.updated_date,
  created_date: event.created_date,
  kiosk_stream_enabled: event.opts.kioskStreamEnabled === 1 && event.collect_leads === 1,
});

export const orgAdmin: User = {
  ...adminUser,
  id: 2,
  email: 'org-admin@example.com',
  role: 2,
  organisation_id: 3,
  organisation_name: 'Acme Events',
};
export const eventOwner: User = {
  ...orgAdmin,
  id: 3,
  email: 'owner@example.com',
  role: 3,
};
export const superUser: User = adminUser;

export const OWNER = '/flashbulb-owner';

/** A signed-in console with the event calls answered; `routes` adds or overrides paths. */
export const installConsoleApi = ({
  user = orgAdmin,
  events = [storedEvent()],
  routes = {},
}: {
  user?: User;
  events?: FlashbulbEvent[];
  routes?: Parameters<typeof installFakeApi>[0];
} = {}) =>
  installFakeApi({
    '/auth/refresh': { ok: tokens() },
    [`${OWNER}/user/my-info/retrieve`]: { ok: user },
    [`${OWNER}/event/basic-list/retrieve`]: {
      ok: { events: events.map(basicOf), total_count: events.length },
    },
    [`${OWNER}/event/full-data/retrieve`]: (body): FakeReply => {
      const name = (body as { event_name: string }).event_name;
      return { ok: events.filter((e) => e.name === name) };
    },
    [`${OWNER}/organisation/list/retrieve`]: {
      ok: {
        organisations: [
          { id: 3, name: 'Acme Events', created_date: '2026-01-01T00:00:00.000Z' },
          { id: 4, name: 'Beta Shows', created_date: '2026-01-01T00:00:00.000Z' },
        ],
      },
    },
    [`${OWNER}/robot/list/retrieve`]: { ok: { robots: [] } },
    [`${OWNER}/image-process/list/retrieve`]: { ok: { image_processes: [] } },
    [`${OWNER}/event/auto-print-processes`]: { ok: { image_processes: [] } },
    [`${OWNER}/ppt/list/retrieve`]: { ok: { public_ppt_list: [], private_ppt_list: [] } },
    ...routes,
  });

/**
 * `/share-bucket/create-upload-access` for organisation 3: a presigned POST to the local storage
 * for the asked file under `share/3/`, and the public address it will have.
 */
export const shareBucketGrant = (body: unknown) => {
  const key = `share/3/${(body as { relativeFilePath: string }).relativeFilePath}`;
  return {
    ok: {
      url: '/storage/flashbulb',
      fields: { key },
      key,
      public_url: `/storage/flashbulb/${key}`,
    },
  };
};

/**
 * A robot as `robot/list/retrieve` lists it: "Booth 1" (id 5) of organisation 3, connected to no
 * event and with no upload yet, unless `overrides` says otherwise.
 */
export const listedRobot = (overrides: Record<string, unknown> = {}) => ({
  id: 5,
  name: 'Booth 1',
  organisation_id: 3,
  event_id: null,
  event_name: null,
  last_upload_date: null,
  upload_count: 0,
  ...overrides,
});
