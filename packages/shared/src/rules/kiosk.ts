/**
 * Kiosk rules (albums spec §2.3, §2.4, §3, §4, §9; owner-console §9): the entry page's card code
 * and redirect, the kiosk screen's timings and the local storage keys a guest leaves behind.
 * Pure functions: the server renders the entry page with them, the web kiosk screen reads them.
 */

/** §9: the entry page redirects this long after a valid card. */
export const KIOSK_REDIRECT_DELAY_MS = 500;
/** §9: actions on the kiosk screen are throttled to one per this interval. */
export const KIOSK_THROTTLE_MS = 1000;
/** An idle kiosk session ends after this long when neither its link nor its event says. */
export const KIOSK_SESSION_DEFAULT_MS = 120_000;
/** Upper bound of a kiosk session's idle timeout (a kiosk left open shows the next guest nothing). */
export const KIOSK_SESSION_MAX_MS = 3_600_000;
/** Lower bound for a kiosk's own page-active timeout (a shorter one could not be used). */
export const KIOSK_PAGE_ACTIVE_TIMEOUT_MIN_MS = 3_000;
/** The spec's message for a card that opens nothing (the card name is omitted). */
export const INVALID_CARD_CODE = 'Invalid card code.';

/** Local storage keys of §3 (and the shop flag): a kiosk clears them between guests. */
export const KIOSK_LOCAL_STORAGE_KEYS = [
  'role',
  'eventName',
  'allowKioskPhotoDelete',
  'isShopKiosk',
  'selectedEventId',
] as const;

/** All-photos kiosk (evSB1) or preselected-photos kiosk (evSB2). */
export type KioskEntryMode = 'evSB1' | 'evSB2';

export interface KioskEntryConfig {
  mode: KioskEntryMode;
  /** The kiosk's private key (`pvId` / `privateId`). */
  privateKey: string;
  pricingModel: string | null;
  kioskPreviewSize: number | null;
  miniAlbumPreviewSize: number | null;
  allowKioskPhotoDelete: boolean;
  /**
   * Page-active timeout of the kiosk screen (`pageActiveTimeout`, ms) when the link sets one;
   * null: the event's session expiry (`kioskIdleTimeoutMs`).
   */
  pageActiveTimeoutMs: number | null;
  /**
   * The event's display token (`display`): with the private key it makes the screen the
   * organiser's kiosk (desk unlock, printing, e-mail, profile photos); it rides along to the
   * kiosk screen.
   */
  displayToken?: string | null;
}

/**
 * The code a scanner typed (§2.3): the text after `attId=` of an `attId` link (after the last `=`
 * of any other text; a bare code is taken as is), URL-decoded, up to a following `&` or `#` (of a
 * booth-chosen attendee's `id~private id`, the private id), with dashes and spaces removed and in
 * upper case. Null when nothing is left or it has characters a card code never has.
 * Self-contained (built-ins only): the server writes its source into the kiosk entry page's script.
 */
export const kioskCardCode = (scan: string): string | null => {
  const text = scan.trim();
  if (!text) return null;
  // The attId parameter where the link has one (other parameters may follow), else the last `=`.
  const att = /[?&]attId=/i.exec(text);
  const equals = att ? att.index + att[0].length - 1 : text.lastIndexOf('=');
  let raw = (equals >= 0 ? text.slice(equals + 1) : text).split(/[&#]/)[0] ?? '';
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // keep the raw text: a scanner may send a stray percent sign
  }
  // A booth-chosen attendee's album link carries the private id after its id: `1234~K7QX2MPA`.
  const tilde = raw.lastIndexOf('~');
  if (tilde >= 0) raw = raw.slice(tilde + 1);
  const code = raw.replace(/[-\s]/g, '').toUpperCase();
  return /^[A-Z0-9]{4,40}$/.test(code) ? code : null;
};

/**
 * The code printed on a kiosk card (§2.3): the attendee's private id, without dashes — what the
 * entry page checks. Not the album id: a photographed card opens nothing outside a kiosk.
 */
export const kioskCardText = (privateId: string): string =>
  privateId.replace(/[-\s]/g, '').toUpperCase();

/** What a kiosk card's QR encodes: an attId link whose code is the printed one. */
export const kioskCardLink = (base: string, privateId: string): string =>
  `${base.replace(/\/+$/, '')}/?attId=${encodeURIComponent(kioskCardText(privateId))}`;

const positiveSize = (raw: string | null): number | null => {
  if (raw === null || !/^\d{1,5}$/.test(raw.trim())) return null;
  const n = Number(raw.trim());
  return n >= 1 && n <= 10_000 ? n : null;
};

/** A link's `pageActiveTimeout` (ms, 3 s – 1 h); null when the link sets none (or nonsense). */
export const pageActiveTimeoutFrom = (raw: string | null): number | null => {
  const text = raw?.trim() ?? '';
  if (!/^\d{1,7}$/.test(text)) return null;
  return Math.max(KIOSK_PAGE_ACTIVE_TIMEOUT_MIN_MS, Math.min(Number(text), KIOSK_SESSION_MAX_MS));
};

/**
 * The entry page's settings from its link (`/kiosk/entry?pvId=…&kType=evSB2&…`); null when the
 * link lacks the key or names another mode.
 */
export const kioskEntryConfigFrom = (query: URLSearchParams): KioskEntryConfig | null => {
  const privateKey = (query.get('pvId') ?? query.get('privateId') ?? '').trim();
  const mode = (query.get('kType') ?? 'evSB2').trim();
  if (!privateKey || privateKey.length > 200) return null;
  if (mode !== 'evSB1' && mode !== 'evSB2') return null;
  return {
    mode,
    privateKey,
    pricingModel: query.get('pricingModel')?.trim().slice(0, 100) || null,
    kioskPreviewSize: positiveSize(query.get('kioskPreviewSize')),
    miniAlbumPreviewSize: positiveSize(query.get('miniAlbumPreviewSize')),
    allowKioskPhotoDelete: query.get('allowKioskPhotoDelete') === 'true',
    pageActiveTimeoutMs: pageActiveTimeoutFrom(query.get('pageActiveTimeout')),
    displayToken: query.get('display')?.trim().slice(0, 200) || null,
  };
};

/** The entry page link of a kiosk (what the console gives out and the kiosk screen returns to). */
export const kioskEntryUrl = (base: string, config: KioskEntryConfig): string => {
  const params = new URLSearchParams({ kType: config.mode, pvId: config.privateKey });
  if (config.pricingModel) params.set('pricingModel', config.pricingModel);
  if (config.kioskPreviewSize) params.set('kioskPreviewSize', String(config.kioskPreviewSize));
  if (config.miniAlbumPreviewSize)
    params.set('miniAlbumPreviewSize', String(config.miniAlbumPreviewSize));
  if (config.allowKioskPhotoDelete) params.set('allowKioskPhotoDelete', 'true');
  if (config.pageActiveTimeoutMs !== null)
    params.set('pageActiveTimeout', String(config.pageActiveTimeoutMs));
  if (config.displayToken) params.set('display', config.displayToken);
  return `${base.replace(/\/+$/, '')}/kiosk/entry?${params.toString()}`;
};

/**
 * Where a valid card goes (§2.3): all-photos `kType=evSB1` with `pvId`, `attendeeId` and the
 * pricing model; preselected `kType=evSB2` with `privateId`, `attId` and the pricing model; both
 * with `kioskPreviewSize` and `miniAlbumPreviewSize`. `kioskMode=true`, the delete flag, the
 * display token and the entry link (to return to when idle) ride along.
 */
export const kioskRedirectUrl = (
  eventsSite: string,
  config: KioskEntryConfig,
  attendeeUid: string,
): string => {
  const params = new URLSearchParams({ kType: config.mode });
  if (config.mode === 'evSB1') {
    params.set('pvId', config.privateKey);
    params.set('attendeeId', attendeeUid);
  } else {
    params.set('privateId', config.privateKey);
    params.set('attId', attendeeUid);
  }
  params.set('pricingModel', config.pricingModel ?? '');
  params.set('kioskPreviewSize', config.kioskPreviewSize ? String(config.kioskPreviewSize) : '');
  params.set(
    'miniAlbumPreviewSize',
    config.miniAlbumPreviewSize ? String(config.miniAlbumPreviewSize) : '',
  );
  params.set('kioskMode', 'true');
  if (config.allowKioskPhotoDelete) params.set('allowKioskPhotoDelete', 'true');
  if (config.pageActiveTimeoutMs !== null)
    params.set('pageActiveTimeout', String(config.pageActiveTimeoutMs));
  if (config.displayToken) params.set('display', config.displayToken);
  return `${eventsSite.replace(/\/+$/, '')}/?${params.toString()}`;
};

/**
 * How long a kiosk session may sit idle before it asks "Still there?" and returns to the attract
 * screen: the link's `pageActiveTimeout` when it has one, else the event's `sessionExpiryMinutes`,
 * else two minutes; between 3 s and an hour.
 */
export const kioskIdleTimeoutMs = (
  linkTimeoutMs: number | null,
  sessionExpiryMinutes: number | null | undefined,
): number => {
  const fromEvent =
    typeof sessionExpiryMinutes === 'number' && sessionExpiryMinutes > 0
      ? sessionExpiryMinutes * 60_000
      : null;
  const chosen = linkTimeoutMs ?? fromEvent ?? KIOSK_SESSION_DEFAULT_MS;
  return Math.min(KIOSK_SESSION_MAX_MS, Math.max(KIOSK_PAGE_ACTIVE_TIMEOUT_MIN_MS, chosen));
};

/**
 * When the "Still there?" prompt shows: the last 30 seconds of an idle session, or its last third
 * when the whole timeout is shorter than 90 seconds.
 */
export const kioskStillTherePromptMs = (timeoutMs: number): number =>
  Math.min(30_000, Math.floor(timeoutMs / 3));

/** mm:ss of a countdown (§4); never negative. */
export const countdownText = (remainingMs: number): string => {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const mm = Math.floor(total / 60);
  const ss = total % 60;
  return `${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
};

/**
 * Print image list display rule (§4): hidden if (not kiosk mode, not an owner-album type and
 * printFromAllAlbums is 1) or if (not an owner-album type and more than one printer pool).
 */
export const showPrintImageList = (input: {
  kioskMode: boolean;
  ownerAlbum: boolean;
  printFromAllAlbums: number;
  printerPoolCount: number;
}): boolean => {
  if (!input.kioskMode && !input.ownerAlbum && input.printFromAllAlbums === 1) return false;
  if (!input.ownerAlbum && input.printerPoolCount > 1) return false;
  return true;
};

/** §6: kiosk photo delete is offered only when the flag is true in the query or local storage. */
export const kioskDeleteAllowed = (queryValue: string | null, stored: string | null): boolean =>
  queryValue === 'true' || stored === 'true';
