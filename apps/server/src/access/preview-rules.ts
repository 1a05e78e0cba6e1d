import type { EventRow } from '../repositories/events/event.repository.ts';

/**
 * Which picture and which clip a caller receives of a photo (docs/domains/photos.md, "Protected
 * previews"). The presenter asks; the URL signer only turns the chosen variant into a URL.
 */

/** A paid event as ADR 0006 reads it: not free and not unlocked. */
export const isPaidEvent = (event: Pick<EventRow, 'is_free' | 'unlocked'>): boolean =>
  event.is_free !== 1 && event.unlocked !== 1;

/** Who asks, as the presenter knows it. */
export interface PreviewCaller {
  audience: 'owner' | 'private' | 'public' | 'attendee' | 'robot';
  /** The photo's event; unknown for a guest audience counts as paid (the safe side). */
  event: Pick<EventRow, 'is_free' | 'unlocked'> | null | undefined;
  /** The caller may download the original (owner, private key of a free event, paid, prepaid). */
  original: boolean;
}

/**
 * A guest who has not bought the photo of a paid event: every audience but the operators', without
 * the right to the original, on an event that is paid (or unknown).
 */
export const isLockedGuest = (caller: PreviewCaller): boolean =>
  caller.audience !== 'owner' && !caller.original && (!caller.event || isPaidEvent(caller.event));

/** What a caller's `preview` is made of. */
export type PreviewVariant = 'preview' | 'protector_watermark';

/**
 * A locked guest gets the protected preview (at most 1200 px, the protector mark tiled over it)
 * and nothing else full-size: not the clean preview, and not the event's other watermarked
 * variants (one centred mark, 2000 px: cropped off in a minute). A photo whose protected preview
 * is not made yet (the reprocess job is still on its way) shows its thumbnail meanwhile.
 * Everyone else gets the clean preview.
 */
export const previewChoice = (
  caller: PreviewCaller,
): { preview: PreviewVariant; fullSizeWatermarks: boolean } =>
  isLockedGuest(caller)
    ? { preview: 'protector_watermark', fullSizeWatermarks: false }
    : { preview: 'preview', fullSizeWatermarks: true };

/** The clip a caller plays (a paid event's protected preview is its first seconds, marked). */
export type VideoVariant = 'video' | 'video_watermark' | 'video_protected';

/**
 * Operators the plain rendition; a locked guest only the protected preview clip; other guests the
 * watermarked rendition when the event watermarks (it exists), else the plain one.
 */
export const videoChoice = (caller: PreviewCaller, hasWatermarked: boolean): VideoVariant => {
  if (caller.audience === 'owner') return 'video';
  if (isLockedGuest(caller)) return 'video_protected';
  return hasWatermarked ? 'video_watermark' : 'video';
};
