import { isProtectedKey } from './key-space.ts';

/**
 * Which stored objects a setting may name (watermarks, logo, web-app images, stock images, print
 * template images). The server reads some of them with full storage rights (the derivatives and
 * image-process jobs read the watermark, the renderer a template's images), so a setting that
 * could name any key would let one tenant publish another's originals as its own watermark.
 *
 * One rule, used when a setting is saved and again when a job reads it: a stored object must lie
 * in an upload area made for such files inside the owner's own organisation (`share/<id>/`, the
 * share-bucket uploads) or event (`stock-images/<code>/`), be a public key, and have no `.`/`..`
 * or empty segment. Bundled defaults (`/default-watermark.png`, …) are not stored objects and
 * always pass; full http(s) URLs pass only for fields the browser loads itself (logo, web-app and
 * stock images), never for the ones a job reads.
 */

/** Images the web app ships; a job that meets one uses its built-in equivalent. */
export const BUNDLED_IMAGES: ReadonlySet<string> = new Set([
  '/default-watermark.png',
  '/default-logo.png',
]);

/** Whose upload areas a reference may point into. */
export interface ReferenceOwner {
  organisationId: number;
  /** The event's code; null before the event exists (at create) or for organisation files. */
  eventCode: string | null;
}

/** What a setting's value turned out to name. */
export type StorageReference =
  | { kind: 'none' }
  | { kind: 'bundled'; path: string }
  | { kind: 'external'; url: string }
  | { kind: 'stored'; key: string };

export interface ReferenceOptions {
  /**
   * Whether a full URL elsewhere may stand in for a stored object: `http` (http and https),
   * `image` (those and inline `data:image/…`), or false (a job reads the value: stored or bundled
   * only).
   */
  external: 'http' | 'image' | false;
  /**
   * The public URL of storage key `x` minus the `x` (`storage.publicUrl('x').slice(0, -1)`): a
   * pasted public URL of an owned object is that object.
   */
  publicPrefix?: string;
}

/** The upload areas of an owner, as key prefixes. */
export const ownedRoots = (owner: ReferenceOwner): string[] => [
  `share/${owner.organisationId}/`,
  ...(owner.eventCode ? [`stock-images/${owner.eventCode}/`] : []),
];

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const INLINE_IMAGE = /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i;

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** A clean key inside one of `roots`, or null. */
const ownedKey = (key: string, roots: string[]): string | null => {
  const segments = key.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) return null;
  if (isProtectedKey(key)) return null;
  return roots.some((root) => key.startsWith(root)) ? key : null;
};

/**
 * What `value` names, or null when it names something the owner may not use (the caller refuses
 * the save, or a job logs and falls back to its default).
 */
export const resolveStorageReference = (
  value: string | null | undefined,
  owner: ReferenceOwner,
  options: ReferenceOptions,
): StorageReference | null => {
  const trimmed = value?.trim() ?? '';
  if (!trimmed) return { kind: 'none' };
  if (BUNDLED_IMAGES.has(trimmed)) return { kind: 'bundled', path: trimmed };
  let key: string;
  if (options.publicPrefix && trimmed.startsWith(options.publicPrefix)) {
    try {
      key = decodeURIComponent(trimmed.slice(options.publicPrefix.length).split(/[?#]/)[0]!);
    } catch {
      return null;
    }
  } else if (SCHEME.test(trimmed) || trimmed.startsWith('//')) {
    if (options.external === false) return null;
    if (isHttpUrl(trimmed)) return { kind: 'external', url: trimmed };
    if (options.external === 'image' && INLINE_IMAGE.test(trimmed))
      return { kind: 'external', url: trimmed };
    return null;
  } else {
    key = trimmed.replace(/^\/+/, '');
  }
  const owned = ownedKey(key, ownedRoots(owner));
  return owned ? { kind: 'stored', key: owned } : null;
};

/**
 * A print or watermark template's image: a key in its organisation's `share/<id>/watermarks/`
 * folder; a public template (no organisation, made by super users) may use any organisation's.
 */
export const templateImageKey = (key: string, organisationId: number | null): string | null => {
  const owned = ownedKey(key, [
    organisationId === null ? 'share/' : `share/${organisationId}/watermarks/`,
  ]);
  if (!owned) return null;
  return /^share\/\d+\/watermarks\/./.test(owned) ? owned : null;
};

/**
 * The key a job may read for a setting's value, or null (nothing to read: empty, a bundled default,
 * or refused). A refused value is logged with where it came from and never read: the job falls back
 * to its default.
 */
export const keyForJob = (
  value: string | null | undefined,
  owner: ReferenceOwner,
  publicPrefix: string,
  warn: (details: Record<string, unknown>, message: string) => void,
  context: Record<string, unknown>,
): string | null => {
  const reference = resolveStorageReference(value, owner, { external: false, publicPrefix });
  if (!reference) {
    warn({ ...context, reference: value }, 'storage reference refused: outside the owner’s areas');
    return null;
  }
  return reference.kind === 'stored' ? reference.key : null;
};
