import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { defaultEventOpts, endpoints } from '@flashbulb/shared';
import {
  api,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
  type AlbumEvent,
} from './albums.ts';

/** The showcase event's branding: what the guest pages should show of an operator's settings. */
export const SHOWCASE = {
  title: 'Harbour Lights Festival',
  hashTag: 'harbourlights',
  accent: '#d9480f',
  logoLink: 'https://example.com/harbour-lights',
  supportLink: 'https://example.com/help',
};

/** A small SVG logo as a data: URL (the CSP allows data: images). */
const logo = () =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="64" viewBox="0 0 200 64">` +
      `<circle cx="32" cy="32" r="26" fill="${SHOWCASE.accent}"/>` +
      `<path d="M14 40 q18 -22 36 0" stroke="#fff" stroke-width="5" fill="none"/>` +
      `<text x="66" y="30" font-family="Verdana" font-weight="700" font-size="19" fill="${SHOWCASE.accent}">HARBOUR</text>` +
      `<text x="66" y="52" font-family="Verdana" font-size="16" fill="${SHOWCASE.accent}">LIGHTS</text></svg>`,
  )}`;

/** Sizes of real cameras and phones: landscape, portrait, square, panorama-ish. */
const FRAMES: readonly [number, number][] = [
  [1500, 1000],
  [1000, 1500],
  [1600, 900],
  [1200, 1200],
  [1500, 1000],
  [900, 1350],
  [2000, 900],
  [1500, 1000],
  [1000, 1500],
  [1500, 1000],
  [1200, 1200],
  [1600, 900],
];
const PALETTES: readonly [string, string, string][] = [
  ['#0b132b', '#f76707', '#ffd8a8'],
  ['#1c7ed6', '#66d9e8', '#fff3bf'],
  ['#2b8a3e', '#a9e34b', '#fff9db'],
  ['#862e9c', '#f783ac', '#ffe3e3'],
  ['#1864ab', '#ffa94d', '#fff4e6'],
  ['#364fc7', '#9775fa', '#e5dbff'],
];

/** One photo-like picture: a sky gradient, a sun and hills, in the frame's own shape. */
const picture = (i: number, width: number, height: number) => {
  const [deep, warm, light] = PALETTES[i % PALETTES.length]!;
  const sun = 0.2 + ((i * 37) % 60) / 100;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${deep}"/>` +
      `<stop offset="0.7" stop-color="${warm}"/><stop offset="1" stop-color="${light}"/></linearGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#s)"/>` +
      `<circle cx="${width * sun}" cy="${height * 0.55}" r="${Math.min(width, height) * 0.12}" fill="${light}" opacity="0.9"/>` +
      `<path d="M0 ${height * 0.78} Q ${width * 0.3} ${height * 0.62} ${width * 0.55} ${height * 0.76} T ${width} ${height * 0.7} V ${height} H 0 Z" fill="${deep}" opacity="0.85"/>` +
      `<path d="M0 ${height * 0.88} Q ${width * 0.4} ${height * 0.78} ${width} ${height * 0.9} V ${height} H 0 Z" fill="#000" opacity="0.55"/></svg>`,
  );
};

/** A folder of `count` photo-like JPEGs in varied aspect ratios. */
export const showcasePhotos = async (count = 18): Promise<string> => {
  const folder = await mkdtemp(path.join(tmpdir(), 'flashbulb-showcase-'));
  for (let i = 0; i < count; i += 1) {
    const [width, height] = FRAMES[i % FRAMES.length]!;
    await sharp(picture(i, width, height))
      .jpeg({ quality: 82 })
      .toFile(path.join(folder, `IMG_${String(4021 + i * 7).padStart(4, '0')}.jpg`));
  }
  return folder;
};

/** A free event with the showcase branding, its robot's photos uploaded and ready. */
export const setUpShowcase = async (
  base: string,
  photos = 18,
  /** Settings beside the branding (a kiosk's staff PIN). */
  extra: Partial<Parameters<typeof setUpAlbumEvent>[1]> = {},
): Promise<{ event: AlbumEvent; folder: string }> => {
  const event = await setUpAlbumEvent(base, {
    ...extra,
    full_name: SHOWCASE.title,
    hash_tag: SHOWCASE.hashTag,
    logo_full_path: logo(),
    logo_link: SHOWCASE.logoLink,
    opts: {
      ...defaultEventOpts(),
      description: 'guest page showcase',
      supportLink: SHOWCASE.supportLink,
      guestAccentColor: SHOWCASE.accent,
    },
  });
  const folder = await showcasePhotos(photos);
  await robotUpload(base, event, folder);
  await waitForPublicPhotos(base, event, photos);
  return { event, folder };
};

/** The guest pages of an event, by name (album, slide show, kiosk album, kiosk error). */
export const guestPages = (base: string, event: AlbumEvent) => {
  const pId = encodeURIComponent(event.publicKey);
  return {
    album: `${base}/?pId=${pId}`,
    slideshow: `${base}/?pId=${pId}&mode=slideshow`,
    stream: `${base}/?pId=${pId}&mode=stream`,
    kiosk: `${base}/?pId=${pId}&kioskMode=true`,
    privateAlbum: `${base}/?pvId=${encodeURIComponent(event.privateKey)}`,
    kioskAllPhotos: `${base}/?kType=evSB1&pvId=${encodeURIComponent(event.privateKey)}`,
    kioskMissingKey: `${base}/?kType=evSB1`,
    invalidLink: `${base}/?pId=not-a-key`,
    roamer: `${base}/?roamer&eventKey=${encodeURIComponent(event.ownerKey)}`,
    roamerAskKey: `${base}/?roamer`,
  };
};

/**
 * The showcase's personal pages: an attendee album (a generated attendee with three of the
 * photos) and a mini-album of two photos sent from the public album; their links.
 */
export const personalPages = async (base: string, event: AlbumEvent) => {
  const list = await api(base, endpoints.publicPhotoList, {
    key_type: 'public',
    key_value: event.publicKey,
    max_size: 100,
  });
  const { events } = await api(base, endpoints.eventBasicList, {}, event.token);
  const row = events.find((e) => e.name === event.code);
  if (!row) throw new Error('the showcase event is not in the list');
  const { attendees } = await api(
    base,
    endpoints.generateAttendeeList,
    { attendee_count: 1, event_id_array: [row.id] },
    event.token,
  );
  const attendee = attendees[0];
  if (!attendee) throw new Error('no attendee generated');
  await api(
    base,
    endpoints.ownerAttachPhotos,
    {
      event_id: row.id,
      attendee_uid: attendee.uid,
      photo_uid_array: list.photos.slice(0, 3).map((p) => p.uid),
    },
    event.token,
  );
  const mini = await api(base, endpoints.sendMiniAlbumLink, {
    key_type: 'public',
    key_value: event.publicKey,
    email_to_address_array: ['guest@example.com'],
    receiver_full_name: 'Ann Lee',
    photo_uid_array: list.photos.slice(3, 5).map((p) => p.uid),
  });
  return {
    attendee: `${base}/?attId=${encodeURIComponent(attendee.display_uid)}`,
    miniAlbum: new URL(new URL(mini.url).search, base).href,
  };
};
