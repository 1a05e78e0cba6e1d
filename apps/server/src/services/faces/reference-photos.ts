import { assertValidKey, type StorageRepository } from '../../storage/storage.repository.ts';

/**
 * Where reference photos may be, below `<root>/<event code>/`: the event's photos (public files,
 * and originals and previews in protected space — a photo's `full_path`) and its selfies.
 */
export const REFERENCE_ROOTS = ['events', 'protected/events', 'selfies'] as const;
/** Where guests' selfies are uploaded (protected: `selfies/<event code>/<uuid>.<ext>`). */
export const SELFIE_ROOT = 'selfies';
/** Where index-ignore face images may be: their upload grant's folder, or the event's photos. */
export const IGNORED_FACE_ROOTS = ['faces', 'events', 'protected/events'] as const;

const PROBE = 'selfies/probe/probe.jpg';

/**
 * The URL bases of this server's storage: where `publicUrl` and `signedGetUrl` put their keys
 * (the same on local disk; on S3 the public base may be a CDN and signed URLs the store).
 */
export const storageUrlBases = async (
  storage: Pick<StorageRepository, 'publicUrl' | 'signedGetUrl'>,
): Promise<URL[]> => {
  const strip = (url: string) => {
    const withoutQuery = url.split('?')[0]!;
    return new URL(withoutQuery.slice(0, withoutQuery.length - PROBE.length));
  };
  return [strip(storage.publicUrl(PROBE)), strip(await storage.signedGetUrl(PROBE))];
};

/**
 * The storage key a reference photo names, or null when it is not an object of this server's
 * storage under one of `roots` for this event (`photo_url_list` entries elsewhere are
 * refused with `invalid_url` and never fetched — no request ever leaves the server for them).
 *
 * Accepted: the object's URL exactly as this storage makes it (public or signed; the query, e.g.
 * a signature, is ignored: the object is read from storage, not through the URL), or the bare key
 * (`full_path` of a photo). Anything else — another host, port or scheme, a different path
 * prefix, `..` segments, encoded slashes, credentials in the URL — is null.
 */
export const storageKeyOfReference = (
  bases: readonly URL[],
  reference: string,
  eventCode: string,
  roots: readonly string[] = REFERENCE_ROOTS,
): string | null => {
  const value = reference.trim();
  let key: string | null = null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (url.username || url.password) return null;
    const base = bases.find(
      (b) =>
        url.protocol === b.protocol && url.host === b.host && url.pathname.startsWith(b.pathname),
    );
    if (!base) return null;
    const segments = url.pathname.slice(base.pathname.length).split('/');
    try {
      const decoded = segments.map((segment) => decodeURIComponent(segment));
      // An encoded `/` would make the key differ from the path the URL shows.
      if (decoded.some((segment) => segment.includes('/'))) return null;
      key = decoded.join('/');
    } catch {
      return null;
    }
  } else {
    if (value.startsWith('/')) return null;
    key = value;
  }
  try {
    assertValidKey(key);
  } catch {
    return null;
  }
  if (key.split('/').some((segment) => segment === '.' || segment === '..')) return null;
  if (!roots.some((root) => key.startsWith(`${root}/${eventCode}/`))) return null;
  return key;
};
