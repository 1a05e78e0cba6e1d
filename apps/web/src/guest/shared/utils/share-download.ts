/**
 * Sharing and saving for guests: the system share sheet where the browser has one
 * (Web Share API), else the link is copied; a download saves the file under its name, also from
 * another origin (object storage), by fetching it first and falling back to opening it.
 */
import { saveHref } from '../../../lib/save-file.ts';

export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

export const canUseShareSheet = (): boolean =>
  typeof navigator !== 'undefined' && typeof navigator.share === 'function';

export const shareLink = async (url: string, title: string): Promise<ShareOutcome> => {
  if (canUseShareSheet()) {
    try {
      await navigator.share({ url, title });
      return 'shared';
    } catch (error) {
      // The guest closed the sheet: nothing to say.
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return 'copied';
  } catch {
    return 'failed';
  }
};

/** A file name for a download: the photo's own when the operator shows names, else a neutral one. */
export const downloadName = (
  fileName: string,
  index: number,
  eventTitle: string,
  showFileNames: boolean,
): string => {
  if (showFileNames) return fileName;
  const extension = /\.[a-z0-9]{2,5}$/i.exec(fileName)?.[0]?.toLowerCase() ?? '.jpg';
  const base = eventTitle.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'photo';
  return `${base}-${index + 1}${extension}`;
};

/** Saves `url` as `name`; a cross-origin file without CORS opens in a new tab instead. */
export const downloadFile = async (url: string, name: string): Promise<void> => {
  const save = (href: string) => saveHref(href, name);
  const sameOrigin = new URL(url, window.location.href).origin === window.location.origin;
  if (sameOrigin) {
    save(url);
    return;
  }
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'omit' });
    if (!response.ok) throw new Error(String(response.status));
    const objectUrl = URL.createObjectURL(await response.blob());
    save(objectUrl);
    setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  } catch {
    window.open(url, '_blank', 'noopener,noreferrer');
  }
};
