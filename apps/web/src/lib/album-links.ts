import { albumPageQuery, type AlbumLinkKind } from '@flashbulb/shared';

export type { AlbumLinkKind };

/**
 * Absolute links to an event's album pages. The query comes from `albumPageQuery` in
 * packages/shared, the inverse of the `pageTypeFromQuery` the album pages route on (albums spec
 * §2.1, plus our `mode=stream` / `mode=slideshow`).
 */
export const albumLink = (
  publicKey: string,
  kind: AlbumLinkKind,
  origin: string = window.location.origin,
  /** The event's display token: screen links (kiosk, stream, slide show) pass the lead gate. */
  displayToken?: string,
): string => `${origin}/${albumPageQuery(publicKey, kind, displayToken)}`;
