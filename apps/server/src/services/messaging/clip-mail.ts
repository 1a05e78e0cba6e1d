import { fillText } from '@flashbulb/shared/i18n/format';
import { enPages } from '@flashbulb/shared/i18n/en-pages';

/**
 * What a mail or an SMS says of a clip among the photos it sends or announces: that it is a
 * video and how long, its poster (never the clip or the original: a mail client shows pictures
 * only) and a link to the clip's own page where the public may see it.
 */

const TEXT = enPages.mail;

/** A clip in a mail: its poster's public thumbnail, its length, and its page (null: none). */
export interface MailClip {
  posterUrl: string | null;
  durationMs: number | null;
  pageUrl: string | null;
}

/** A thumbnail as a mail's frame takes it; `href` null: the mail's main link. */
export interface MailThumb {
  src: string;
  href?: string | null;
  alt?: string;
  caption?: string;
}

/** "0:06", "1:02:03"; empty when unknown. */
export const clipLength = (ms: number | null): string => {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '';
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
};

const lengthOrWord = (clip: Pick<MailClip, 'durationMs'>) => clipLength(clip.durationMs) || '–';

/** The clip's thumbnail: its poster, named a video, linking to its page. */
export const clipThumb = (clip: MailClip): MailThumb | null =>
  clip.posterUrl
    ? {
        src: clip.posterUrl,
        href: clip.pageUrl,
        alt: fillText(TEXT.videoAlt, { duration: lengthOrWord(clip) }),
        caption: fillText(TEXT.videoCaption, { duration: lengthOrWord(clip) }),
      }
    : null;

/**
 * One line per clip (at most `limit`): "Video (0:06): <its page>", or the mail's own link when the
 * clip has no page of its own (the public may not see it).
 */
export const clipLines = (clips: readonly MailClip[], fallbackUrl: string, limit = 3): string[] =>
  clips.slice(0, limit).map((clip) =>
    fillText(TEXT.videoLine, {
      duration: lengthOrWord(clip),
      url: clip.pageUrl ?? fallbackUrl,
    }),
  );
