import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import {
  GUEST_BOOT_COUNT_LIMIT,
  GUEST_BOOT_ELEMENT_ID,
  GUEST_BOOT_PAGE_SIZE,
  type GuestBoot,
  type PublicKeyType,
} from '@flashbulb/shared';
import { publicEventFullData } from '@flashbulb/shared/api/events/events';
import { publicPhotoList } from '@flashbulb/shared/api/photos/photos';
import { pageTypeFromQuery } from '@flashbulb/shared/rules/page-type';
import {
  DEFAULT_GUEST_LANGUAGE,
  textDirection,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';
import type { Principal } from '../access/principal.ts';
import type { EventService } from '../services/events/event.service.ts';
import type { PhotoListingService } from '../services/photos/photo-listing.service.ts';
import { guestFirstPaint, tileImage } from '../pages/album-first-paint.ts';
import { safeHtml, jsonForScript, joinHtml, trusted } from '../pages/page.ts';

/**
 * The album link's first data, sent with `guest.html` (LCP on a slow phone). Without it
 * the page asks for the event and the first photo page only after its JavaScript ran — a round
 * trip on a slow network — and only then for the thumbnails. The server reads both exactly as the
 * API would for the link's key (same body, same access checks, same reply schema), writes them
 * into the page as a JSON data block, and asks the browser to preload the first thumbnails.
 */
export interface GuestBootDeps {
  resolveKey: (keyType: PublicKeyType, keyValue: string) => Promise<Principal>;
  events: Pick<EventService, 'fullDataByKey'>;
  /**
   * The list behind the lead gate, as the list call applies it: a page load carries no lead
   * token, so an event that collects leads gets nothing inlined (the page asks for a lead).
   */
  photoListing: Pick<PhotoListingService, 'listForGuest'>;
}

/** First tiles preloaded: the first row at a phone's width (the grid loads these eagerly too). */
export const PRELOADED_TILES = 3;

/** The key the link's page reads the album with, as the page works it out; null for other pages. */
const albumKeyOf = (search: string): { keyType: PublicKeyType; keyValue: string } | null => {
  const { page } = pageTypeFromQuery(search);
  if (page.kind === 'public-album' || page.kind === 'kiosk-album')
    return { keyType: 'public', keyValue: page.publicKey };
  if (page.kind === 'private-album') return { keyType: 'private', keyValue: page.privateKey };
  return null;
};

/** The event and first photo page for an album link, or null when the key may not read them. */
export const guestBootFor = async (
  deps: GuestBootDeps,
  search: string,
): Promise<GuestBoot | null> => {
  const key = albumKeyOf(search);
  if (!key || key.keyValue.trim() === '') return null;
  const eventName = new URLSearchParams(search).get('eName')?.trim() || null;
  // The bodies the page itself would send (api/album-event.ts, api/guest-album-photos.ts).
  const eventBody = publicEventFullData.body.safeParse({
    key_type: key.keyType,
    key_value: key.keyValue,
    ...(eventName ? { event_name: eventName } : {}),
  });
  // A screen link's display token opens the lead gate as its calls would.
  const display = new URLSearchParams(search).get('display')?.trim() || undefined;
  const listBody = publicPhotoList.body.safeParse({
    key_type: key.keyType,
    key_value: key.keyValue,
    max_size: GUEST_BOOT_PAGE_SIZE,
    page_number: 1,
    show_total_count: 1,
    count_limit: GUEST_BOOT_COUNT_LIMIT,
    ...(display ? { display } : {}),
  });
  if (!eventBody.success || !listBody.success) return null;
  try {
    const principal = await deps.resolveKey(key.keyType, eventBody.data.key_value);
    // The list first: its lead gate decides whether anything is inlined.
    const firstPage = await deps.photoListing.listForGuest(principal, listBody.data);
    const events = await deps.events.fullDataByKey(principal, eventBody.data);
    // Through the replies' schemas, as the API's serializer does: only the contract's fields.
    return {
      key_type: key.keyType,
      key_value: key.keyValue,
      event_name: eventName,
      event: publicEventFullData.result.parse(events)[0] ?? null,
      first_page: publicPhotoList.result.parse(firstPage),
    };
  } catch {
    // A wrong, expired or refused key: nothing is inlined; the page asks and shows the error.
    return null;
  }
};

/**
 * The guest page with the boot data and the first tiles' preloads written into it, and for a plain
 * album grid (`search`: the link's query) its first paint: cover and first row (pages/album-first-paint.ts).
 */
export const withGuestBoot = (
  page: string,
  boot: GuestBoot,
  search = '',
  language: GuestLanguage = DEFAULT_GUEST_LANGUAGE,
): string => {
  const preloads = joinHtml(
    boot.first_page.photos.slice(0, PRELOADED_TILES).flatMap((photo) => {
      // The tile's srcset and (about) its sizes, so the browser preloads the file the tile picks.
      const image = tileImage(photo);
      if (!image) return [];
      return [
        safeHtml`<link rel="preload" as="image" fetchpriority="high" href="${image.src}" imagesrcset="${image.srcset}" imagesizes="${image.sizes}">`,
      ];
    }),
    '\n    ',
  );
  const data = safeHtml`<script type="application/json" id="${GUEST_BOOT_ELEMENT_ID}">${trusted(jsonForScript(boot))}</script>`;
  const paint = guestFirstPaint(boot, search, PRELOADED_TILES, language);
  const style = paint ? safeHtml`\n    <style>${trusted(paint.css)}</style>` : '';
  // Function replacements: `$` in a value is never read as a pattern.
  const head = page.replace(
    /<\/head>/i,
    () => `    ${preloads.toString()}${style.toString()}\n  </head>`,
  );
  const body = withPageLanguage(head, language).replace(
    /<body([^>]*)>/i,
    (tag) => `${tag}\n    ${data.toString()}`,
  );
  return paint
    ? body.replace(
        /<div id="root"><\/div>/,
        () => `<div id="root">${paint.markup.toString()}</div>`,
      )
    : body;
};

/**
 * The guest page's `<html>` in the language its words are in: `lang`, `dir` (right to left for
 * Arabic) and `data-fb-lang`, which the guest app starts in so its first render matches the first
 * paint.
 */
export const withPageLanguage = (page: string, language: GuestLanguage): string =>
  page.replace(
    /<html[^>]*>/i,
    () => `<html lang="${language}" dir="${textDirection(language)}" data-fb-lang="${language}">`,
  );

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The page compressed as the browser accepts (the static files are sent precompressed; this one
 * is made per request and carries up to a page of photos as JSON).
 */
export const compressHtml = async (
  html: string,
  acceptEncoding: string | undefined,
): Promise<{ body: Buffer | string; encoding: 'br' | 'gzip' | null }> => {
  const accepts = (name: string) =>
    (acceptEncoding ?? '')
      .split(',')
      .some((part) => part.trim().split(';')[0]?.trim().toLowerCase() === name);
  if (accepts('br'))
    return {
      body: await brotli(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
      encoding: 'br',
    };
  if (accepts('gzip')) return { body: await gzipped(html), encoding: 'gzip' };
  return { body: html, encoding: null };
};
