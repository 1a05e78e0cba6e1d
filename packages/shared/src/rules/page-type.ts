/**
 * One page, many page types: the query parameters of a link decide what the web app shows
 * (albums spec §2.1). A pure function, so every row of the spec's table is tested case by case.
 */

export type KioskType = 'evSB1' | 'evSB2' | 'evSB3' | 'evSB4';

export type PageType =
  /** No key at all: the admin console and the product-owner album. */
  | { kind: 'console' }
  /** `eId`: the event owner's curation page. */
  | { kind: 'curation'; ownerKey: string }
  /** `pId`: the public album; `mode=stream` / `mode=slideshow` are our additions for screens. */
  | { kind: 'public-album'; publicKey: string; mode: AlbumMode }
  /** `pId` + `kioskMode=true`: the kiosk album (stream and slide show the same way). */
  | { kind: 'kiosk-album'; publicKey: string; mode: AlbumMode }
  /** `pvId` without `kType`: the private album guests share; photos never expire. */
  | { kind: 'private-album'; privateKey: string }
  /** `kType=evSB1`: the all-photos kiosk; needs `pvId`. */
  | { kind: 'kiosk-all-photos'; privateKey: string; attendeeId: string | null }
  /** `kType=evSB3`: the QR ride kiosk. */
  | { kind: 'kiosk-qr-ride'; privateKey: string | null }
  /**
   * `kType=evSB2` (preselected photos) or `evSB4` (shop), or any `attId`: the attendee page; needs
   * `attId`. `fromKiosk` is `attType=evSB2`.
   */
  | {
      kind: 'attendee';
      attendeeId: string;
      kioskType: 'evSB2' | 'evSB4' | null;
      fromKiosk: boolean;
      privateKey: string | null;
    }
  /**
   * `instant=<event>-<code>`: one photo's instant link, handed out with its upload grant: it says
   * "developing" until the photo is ready, then shows it.
   */
  | { kind: 'instant'; instant: string }
  /** `mId`: a mini-album sent by e-mail or SMS (our addition: the link `/?mId=<token>`). */
  | { kind: 'mini-album'; token: string }
  /** `attOrgId` = attendee id and organisation id joined by a dash: the older web-app page. */
  | { kind: 'attendee-legacy'; attendeeId: string; organisationId: string }
  /**
   * `eName` alone (optional `token`): the event's branded web-app page; `token` is the
   * event's public key when the link came from the console (the page's "Find me").
   */
  | { kind: 'webapp'; eventName: string; token: string | null }
  /**
   * `photoId` / `imgSrc` (with `url`, optional `eName`): the share-preview page of one shared
   * photo, rendered by the server (Open Graph tags for link previews). Only `photoId`
   * decides the photo; `imgSrc` and `url` are taken only when they are our own.
   */
  | {
      kind: 'share-preview';
      photoId: string | null;
      imgSrc: string | null;
      url: string | null;
      eventName: string | null;
    }
  /**
   * `ename` (lower case; `mode=qrcode`): the photo-stream site, a live wall of the event's photos,
   * newest first; `qrcode` lays a QR code of each photo's share link over it. It reads the album
   * with the public key in `token` (the console's link carries it, as on the web-app page).
   */
  | { kind: 'photo-stream'; eventName: string; qrCode: boolean; publicKey: string | null }
  /** A link missing a required parameter: the page shows this message. */
  /**
   * `roamer` (optional `eventKey`): a roaming photographer's phone page — the event's owner key
   * (the key an operator hands out for uploading) opens the event, and photos taken or chosen on
   * the phone go into its album through the same upload grant a robot uses.
   */
  | { kind: 'roamer'; eventKey: string | null }
  | { kind: 'error'; message: 'Query param &pvId is required' | 'Query param &attId is required' };

export type AlbumMode = 'grid' | 'stream' | 'slideshow';

export interface PageContext {
  page: PageType;
  kioskMode: boolean;
  /** `app=ios` or `app=android`: running inside the mobile app. */
  app: 'ios' | 'android' | null;
  /** `kType=evSB4` also stores a shop-kiosk flag locally. */
  shopKiosk: boolean;
  /**
   * Outside kiosk mode the attendee id is kept in a cookie shared across subdomains for 10 days,
   * so the attendee finds their album again from any page of the product.
   */
  rememberAttendeeId: string | null;
  /** `stHtmlUrl`, URL-decoded. */
  stHtmlUrl: string | null;
  /**
   * `display`: the event's display token in the organiser's screen links (kiosk, stream, slide
   * show); the lead gate lets only that token through (a guest's `display=1` is no token).
   */
  displayToken: string | null;
}

export const ATTENDEE_COOKIE = 'flashbulb_attendee';
export const ATTENDEE_COOKIE_DAYS = 10;

const value = (params: URLSearchParams, name: string): string | null => {
  const raw = params.get(name);
  return raw === null || raw.trim() === '' ? null : raw.trim();
};

const decodeOnce = (raw: string | null): string | null => {
  if (raw === null) return null;
  try {
    // URLSearchParams already decoded the query string once; stHtmlUrl is encoded on top of that.
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

const albumMode = (params: URLSearchParams): AlbumMode => {
  const mode = value(params, 'mode');
  return mode === 'stream' || mode === 'slideshow' ? mode : 'grid';
};

export const pageTypeFromQuery = (query: string | URLSearchParams): PageContext => {
  const params =
    typeof query === 'string'
      ? new URLSearchParams(query.startsWith('?') ? query.slice(1) : query)
      : query;
  const kioskMode = value(params, 'kioskMode') === 'true';
  const appParam = value(params, 'app');
  const app = appParam === 'ios' || appParam === 'android' ? appParam : null;
  const kType = value(params, 'kType');
  const pvId = value(params, 'pvId');
  const attId = value(params, 'attId');
  const context = (page: PageType): PageContext => ({
    page,
    kioskMode,
    app,
    shopKiosk: kType === 'evSB4',
    rememberAttendeeId: page.kind === 'attendee' && !kioskMode ? page.attendeeId : null,
    stHtmlUrl: decodeOnce(value(params, 'stHtmlUrl')),
    displayToken: value(params, 'display'),
  });

  if (kType === 'evSB1') {
    return context(
      pvId
        ? {
            kind: 'kiosk-all-photos',
            privateKey: pvId,
            attendeeId: value(params, 'attendeeId') ?? attId,
          }
        : { kind: 'error', message: 'Query param &pvId is required' },
    );
  }
  if (kType === 'evSB3') return context({ kind: 'kiosk-qr-ride', privateKey: pvId });
  if (kType === 'evSB2' || kType === 'evSB4' || attId) {
    if (!attId) return context({ kind: 'error', message: 'Query param &attId is required' });
    return context({
      kind: 'attendee',
      attendeeId: attId,
      kioskType: kType === 'evSB2' || kType === 'evSB4' ? kType : null,
      fromKiosk: value(params, 'attType') === 'evSB2',
      privateKey: pvId ?? value(params, 'privateId'),
    });
  }
  const instant = value(params, 'instant');
  if (instant) return context({ kind: 'instant', instant });
  const mId = value(params, 'mId');
  if (mId) return context({ kind: 'mini-album', token: mId });
  const eId = value(params, 'eId');
  if (eId) return context({ kind: 'curation', ownerKey: eId });
  const pId = value(params, 'pId');
  if (pId) {
    return context(
      kioskMode
        ? { kind: 'kiosk-album', publicKey: pId, mode: albumMode(params) }
        : { kind: 'public-album', publicKey: pId, mode: albumMode(params) },
    );
  }
  if (pvId) return context({ kind: 'private-album', privateKey: pvId });
  const attOrgId = value(params, 'attOrgId');
  if (attOrgId) {
    const dash = attOrgId.lastIndexOf('-');
    if (dash > 0 && dash < attOrgId.length - 1) {
      return context({
        kind: 'attendee-legacy',
        attendeeId: attOrgId.slice(0, dash),
        organisationId: attOrgId.slice(dash + 1),
      });
    }
  }
  if (params.has('roamer')) return context({ kind: 'roamer', eventKey: value(params, 'eventKey') });
  const photoId = value(params, 'photoId');
  const imgSrc = value(params, 'imgSrc');
  if (photoId || imgSrc) {
    return context({
      kind: 'share-preview',
      photoId,
      imgSrc,
      url: value(params, 'url'),
      eventName: value(params, 'eName'),
    });
  }
  const streamName = value(params, 'ename');
  if (streamName) {
    return context({
      kind: 'photo-stream',
      eventName: streamName,
      qrCode: value(params, 'mode') === 'qrcode',
      publicKey: value(params, 'token'),
    });
  }
  const eName = value(params, 'eName');
  if (eName) return context({ kind: 'webapp', eventName: eName, token: value(params, 'token') });
  return context({ kind: 'console' });
};

export type AlbumLinkKind = 'public' | 'kioskAlbum' | 'kioskStream' | 'slideShow';

const ALBUM_LINK_PARAMS: Record<AlbumLinkKind, Record<string, string>> = {
  public: {},
  kioskAlbum: { kioskMode: 'true' },
  kioskStream: { kioskMode: 'true', mode: 'stream' },
  slideShow: { mode: 'slideshow' },
};

/**
 * The query string of an event's album page by its public key — the inverse of
 * `pageTypeFromQuery` for `pId` links, so the console builds exactly what the album pages read.
 */
export const albumPageQuery = (
  publicKey: string,
  kind: AlbumLinkKind,
  displayToken?: string,
): string =>
  `?${new URLSearchParams({
    pId: publicKey,
    ...ALBUM_LINK_PARAMS[kind],
    // Screens (not the guests' album) carry the event's display token past the lead gate.
    ...(displayToken && kind !== 'public' ? { display: displayToken } : {}),
  }).toString()}`;

/** Every page an operator hands out for one event (albums spec §2.1), in the console's order. */
export type EventPageKind =
  | 'public'
  | 'private'
  | 'curation'
  | 'kioskAlbum'
  | 'kioskStream'
  | 'slideShow'
  | 'qrRide'
  | 'allPhotosKiosk'
  | 'webApp'
  | 'photoStream'
  | 'roamer';

export const EVENT_PAGE_KINDS: readonly EventPageKind[] = [
  'public',
  'private',
  'curation',
  'kioskAlbum',
  'kioskStream',
  'slideShow',
  'qrRide',
  'allPhotosKiosk',
  'webApp',
  'photoStream',
  'roamer',
];

/**
 * The link of each page type of an event, from its code and keys — the inverse of
 * `pageTypeFromQuery`, so the console never builds a URL by hand. The web-app page is named by
 * the event code (`eName`: its branding and registration) and carries the public key as its
 * `token` (its "Find me" searches the public album's photos with it). The organiser's screens
 * (kiosks, stream, slide show) carry the event's display token, which opens the lead gate.
 */
export const eventPageLinks = (
  origin: string,
  event: {
    name: string;
    publicKey: string;
    privateKey: string;
    ownerKey: string;
    displayToken?: string;
  },
): Record<EventPageKind, string> => {
  const screen: Record<string, string> = event.displayToken ? { display: event.displayToken } : {};
  const link = (params: Record<string, string>) =>
    `${origin}/?${new URLSearchParams(params).toString()}`;
  return {
    public: `${origin}/${albumPageQuery(event.publicKey, 'public')}`,
    private: link({ pvId: event.privateKey }),
    curation: link({ eId: event.ownerKey }),
    kioskAlbum: `${origin}/${albumPageQuery(event.publicKey, 'kioskAlbum', event.displayToken)}`,
    kioskStream: `${origin}/${albumPageQuery(event.publicKey, 'kioskStream', event.displayToken)}`,
    slideShow: `${origin}/${albumPageQuery(event.publicKey, 'slideShow', event.displayToken)}`,
    qrRide: link({ kType: 'evSB3', pvId: event.privateKey, kioskMode: 'true', ...screen }),
    allPhotosKiosk: link({ kType: 'evSB1', pvId: event.privateKey, kioskMode: 'true', ...screen }),
    webApp: link({ eName: event.name, token: event.publicKey }),
    photoStream: link({ ename: event.name, mode: 'qrcode', token: event.publicKey, ...screen }),
    // The owner key uploads (as a robot's key does): for the event's own photographers only.
    roamer: link({ roamer: '', eventKey: event.ownerKey }),
  };
};
