import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import {
  createContractClient,
  defaultEventOpts,
  endpoints,
  type BodyOf,
  type Endpoint,
  type ResultOf,
} from '@flashbulb/shared';
import { cliInThisProcess } from './cli.ts';
import { repoRoot } from './paths.ts';

export const ALBUM_ADMIN = { email: 'albums@example.com', password: 'amber-meadow-compass-58' };

/** Server environment for album journeys: an administrator who signs in without a second factor. */
export const albumServerEnv = {
  FLASHBULB_ADMIN_EMAIL: ALBUM_ADMIN.email,
  FLASHBULB_ADMIN_PASSWORD: ALBUM_ADMIN.password,
  FLASHBULB_MFA_EXEMPT_USERS: ALBUM_ADMIN.email,
};

/**
 * One typed call of the contract against a running server (the shared contract client), as the
 * owner when `token` is given; a nok reply throws the server's `ContractError`.
 */
export const api = <E extends Endpoint>(
  base: string,
  endpoint: E,
  body: BodyOf<E>,
  token?: string,
): Promise<ResultOf<E>> =>
  createContractClient({ baseUrl: base }).call(
    endpoint,
    body,
    token ? { authorization: `Bearer ${token}` } : {},
  );

export interface AlbumEvent {
  readonly token: string;
  readonly code: string;
  readonly publicKey: string;
  readonly privateKey: string;
  readonly ownerKey: string;
  readonly robotKey: string;
  /** The event's display token: screen links carry it past the lead gate. */
  readonly displayToken: string;
}

/**
 * Administrator → organisation → robot → event with that robot, all through the API; `event`
 * overrides fields of the new event (a paid event: `is_free: 0` and its pricing buttons).
 */
export const setUpAlbumEvent = async (
  base: string,
  event: Partial<BodyOf<typeof endpoints.createEvent>> = {},
  /** Organisation names are unique: a second event on one server needs its own. */
  organisationName = 'Albums',
): Promise<AlbumEvent> => {
  const signIn = await api(base, endpoints.signIn, {
    username: ALBUM_ADMIN.email,
    password: ALBUM_ADMIN.password,
  });
  const token =
    'authentication_result' in signIn ? signIn.authentication_result?.access_token : undefined;
  if (!token) throw new Error(`sign-in asked for a challenge: ${JSON.stringify(signIn)}`);
  const organisation = await api(
    base,
    endpoints.createOrganisation,
    { name: organisationName },
    token,
  );
  const robot = await api(
    base,
    endpoints.createRobot,
    { organisation_id: organisation.id, name: 'Camera 1' },
    token,
  );
  const created = await api(
    base,
    endpoints.createEvent,
    {
      organisation_id: organisation.id,
      full_name: 'Summer party',
      email_from_address: ALBUM_ADMIN.email,
      opts: { ...defaultEventOpts(), description: 'album journeys' },
      robot_id_array: [robot.id],
      ...event,
    },
    token,
  );
  return {
    token,
    code: created.name,
    publicKey: created.public_api_key,
    privateKey: created.private_api_key,
    ownerKey: created.owner_api_key,
    robotKey: robot.api_key,
    displayToken: created.display_token,
  };
};

/** A folder of distinct JPEG photos (`name` → colour), as a camera would leave them. */
export const photoFolder = async (photos: Record<string, string>): Promise<string> => {
  const folder = await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-photos-'));
  for (const [name, colour] of Object.entries(photos)) {
    const jpeg = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: colour },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
    await writeFile(path.join(folder, name), jpeg);
  }
  return folder;
};

const execFileAsync = promisify(execFile);

/**
 * The robot client (`npm run cli -- upload`) sends a folder to the event, like a camera PC would;
 * `env` adds to its environment (a proxy's certificate: `NODE_EXTRA_CA_CERTS`); `attendees` are
 * its `--attendee` ids (each photo goes to all their albums). Answers what it printed.
 */
export const robotUpload = async (
  base: string,
  event: Pick<AlbumEvent, 'code' | 'robotKey'>,
  folder: string,
  env: Record<string, string> = {},
  attendees: string[] = [],
): Promise<string> => {
  const args = [
    'upload',
    '--event',
    event.code,
    '--key',
    event.robotKey,
    '--server',
    base,
    ...attendees.flatMap((id) => ['--attendee', id]),
    folder,
  ];
  // In this process, like the journey's server; an environment of its own (a proxy's certificate
  // for Node's TLS) needs a process of its own.
  if (Object.keys(env).length === 0) return cliInThisProcess(args, process.env);
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
    { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 120_000 },
  );
  return stdout;
};

/** Waits until the public list shows `count` photos (derivatives are made by a background job). */
export const waitForPublicPhotos = async (base: string, event: AlbumEvent, count: number) => {
  const deadline = Date.now() + 60_000;
  let seen = 0;
  while (Date.now() < deadline) {
    const page = await api(base, endpoints.publicPhotoList, {
      key_type: 'public',
      key_value: event.publicKey,
      max_size: 100,
      // The organiser's check, like a display screen: no lead gate (events that collect leads).
      display: event.displayToken,
    });
    seen = page.photos.length;
    if (seen >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the public album shows ${seen} photos, expected ${count}`);
};

/**
 * The robot sends `folder` (`count` photos) and the public list shows them all; answers the
 * photos as the event owner's key lists them (names and uids).
 */
export const uploadAndListPhotos = async (
  base: string,
  event: AlbumEvent,
  folder: string,
  count: number,
) => {
  await robotUpload(base, event, folder);
  await waitForPublicPhotos(base, event, count);
  const list = await api(base, endpoints.publicPhotoList, {
    key_type: 'event_owner',
    key_value: event.ownerKey,
    max_size: 100,
  });
  return list.photos;
};

/** The event's row in its owner's event list (its numeric id, for owner calls). */
export const eventRowOf = async (base: string, event: AlbumEvent) => {
  const { events } = await api(base, endpoints.eventBasicList, {}, event.token);
  const row = events.find((e) => e.name === event.code);
  if (!row) throw new Error(`event ${event.code} is not in its owner's list`);
  return row;
};

/** A paid event's one pricing button: every photo of the album, digital, at the event's price. */
export const ALL_MY_PHOTOS_BUTTON = {
  buttonText: 'All my photos',
  priceFormula: '{Final_Amount}',
  digitals: true,
  prints: false,
  partialUnlockTags: false,
  printsPool: '',
};
