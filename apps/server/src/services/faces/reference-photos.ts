import { assertValidKey, type StorageRepository } from '../../storage/storage.repository.ts';

/**
 * The storage key a reference photo names, or null when it is not an object of this server's
 * storage under `events/<event code>/` (or another of `roots`) (issue 13: `photo_url_list` entries elsewhere are refused
 * with `invalid_url` and never fetched — no request ever leaves the server for them).
 *
 * Accepted: the object's URL exactly as `storage.publicUrl` makes it (a query string, e.g. a
 * signature, is ignored: the object is read from storage, not through the URL), or the bare key
 * (`full_path` of a photo). Anything else — another host or scheme, a different path prefix,
 * `..` segments, encoded slashes, credentials in the URL — is null.
 */
export const storageKeyOfReference = (
  storage: Pick<StorageRepository, 'publicUrl'>,
  reference: string,
  eventCode: string,
  /** Folders (below the event code) besides `events/<code>/`, e.g. `faces` for ignored faces. */
  roots: readonly string[] = ['events'],
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
    // The base of every public URL: publicUrl of a probe key, without the key.
    const probe = 'probe';
    const base = new URL(storage.publicUrl(probe).slice(0, -probe.length));
    if (url.protocol !== base.protocol || url.host !== base.host) return null;
    if (!url.pathname.startsWith(base.pathname)) return null;
    const encoded = url.pathname.slice(base.pathname.length);
    const segments = encoded.split('/');
    try {
      const decoded = segments.map((segment) => decodeURIComponent(segment));
      // An encoded `/` would make the key differ from the path the URL shows.
      if (decoded.some((segment) => segment.includes('/'))) return null;
      key = decoded.join('/');
    } catch {
      return null;
    }
  } else {
    if (value.startsWith('/') || value.startsWith('//')) return null;
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
