import type { AlbumDownloadSize } from '@flashbulb/shared';

/** Which stored object goes into a zip for one photo, or null when the key may not have it. */
export type FilePick = { storageKey: string; variant: 'original' | 'web' } | null;

/** What decides one photo's entry, read from the key, the event and the photo. */
export interface EntryRules {
  /** The key may take this photo's original whatever the event's guest settings say. */
  readonly keyOriginal: boolean;
  /** A paid event not unlocked: a guest without the key's right takes nothing. */
  readonly paid: boolean;
  /** `opts.guestDownloadEnabled`: the operator lets guests save what the album shows. */
  readonly guestDownloads: boolean;
  /** `opts.guestDownloadWebOnly`: the operator limits guests to the web size. */
  readonly guestWebOnly: boolean;
}

export interface EntryPhoto {
  readonly storageKey: string;
  readonly mediaType: string;
  readonly derivatives: Readonly<Record<string, string | undefined>>;
}

/**
 * The file of one photo in an album zip, in the size asked for (`undefined`: the largest the key
 * may have):
 * - a key that may take originals gets the original, or asked for the web size the preview;
 * - a guest of a paid event, or of an event whose operator turned guest downloads off, nothing;
 * - another guest the original only of a photo without the event's watermark (what the album shows
 *   is then the photo itself) and only when the operator did not limit guests to the web size,
 *   else what the album shows: the watermarked picture, or the preview. A clip has no web size.
 */
export const pickEntry = (
  rules: EntryRules,
  photo: EntryPhoto,
  size: AlbumDownloadSize | undefined,
): FilePick => {
  const original = { storageKey: photo.storageKey, variant: 'original' as const };
  const still = photo.mediaType !== 'video';
  const preview = still ? photo.derivatives.preview : undefined;
  if (rules.keyOriginal) {
    if (size === 'web' && preview) return { storageKey: preview, variant: 'web' };
    return original;
  }
  if (rules.paid || !rules.guestDownloads) return null;
  const watermarked = still ? photo.derivatives.photo_watermark : undefined;
  if (size !== 'web' && !rules.guestWebOnly && !watermarked) return original;
  const shown = watermarked ?? preview;
  return shown ? { storageKey: shown, variant: 'web' } : null;
};
