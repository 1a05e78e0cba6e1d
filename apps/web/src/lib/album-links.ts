/**
 * Links to an event's album pages, built in one place from the query parameters of albums spec
 * §2.1 (`pId` = the event's public key; `kioskMode=true` = kiosk). The spec names no parameter for
 * the kiosk photo stream or the slide show, so we add `mode=stream` and `mode=slideshow`; the album
 * pages (issue 5) read the same parameters.
 */
export type AlbumLinkKind = 'public' | 'kioskAlbum' | 'kioskStream' | 'slideShow';

const PARAMS: Record<AlbumLinkKind, Record<string, string>> = {
  public: {},
  kioskAlbum: { kioskMode: 'true' },
  kioskStream: { kioskMode: 'true', mode: 'stream' },
  slideShow: { mode: 'slideshow' },
};

export const albumLink = (
  publicKey: string,
  kind: AlbumLinkKind,
  origin: string = window.location.origin,
): string => {
  const params = new URLSearchParams({ pId: publicKey, ...PARAMS[kind] });
  return `${origin}/?${params.toString()}`;
};
