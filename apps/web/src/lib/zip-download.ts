import { ZIP_ENTRIES_HEADER } from '@flashbulb/shared/api/albums/albums';
import { saveHref } from './save-file.ts';

/**
 * Above this the page does not hold the zip itself (a phone's memory): the browser's own download
 * takes it, with its own progress. Below it the page reads the stream and shows the bar.
 */
export const PAGE_HELD_MAX_BYTES = 400 * 1024 * 1024;

export interface ZipProgress {
  readonly received: number;
  /** The zip's exact length (the server's Content-Length), or null when it gave none. */
  readonly total: number | null;
  readonly entries: number | null;
}

/** The file name of a `Content-Disposition` (the UTF-8 one when given), or a default. */
export const dispositionName = (header: string | null, fallback = 'photos.zip'): string => {
  if (!header) return fallback;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
};

/**
 * Downloads a zip the server streams, reporting bytes received of its length as they arrive, then
 * saves it under its own name. A zip too large for the page to hold (or a response that cannot be
 * read as a stream) is handed to the browser's own download instead: answers `false` then.
 */
export const downloadZip = async (
  url: string,
  onProgress: (progress: ZipProgress) => void,
  signal?: AbortSignal,
): Promise<boolean> => {
  const response = await fetch(url, { signal, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`download failed: ${response.status}`);
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const entriesHeader = Number(response.headers.get(ZIP_ENTRIES_HEADER));
  const entries = Number.isFinite(entriesHeader) ? entriesHeader : null;
  if (!response.body || (total !== null && total > PAGE_HELD_MAX_BYTES)) {
    await response.body?.cancel();
    saveHref(url);
    return false;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, total, entries });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ received, total, entries });
  }
  const blob = new Blob(chunks as BlobPart[], { type: 'application/zip' });
  const href = URL.createObjectURL(blob);
  saveHref(href, dispositionName(response.headers.get('content-disposition')));
  // The click has started the save; the object URL can go once the browser took it.
  window.setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return true;
};
