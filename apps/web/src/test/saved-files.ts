import { vi } from 'vitest';

/**
 * Records the blobs a page saves (jsdom has no object URLs) and stops the download link's click;
 * call it in `beforeEach`, with `vi.restoreAllMocks()` after each test.
 */
export const recordSavedBlobs = (): Blob[] => {
  const created: Blob[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    created.push(blob);
    return 'blob:csv';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return created;
};

/** A saved file's text without the byte-order mark (jsdom's Blob has no text()). */
export const savedText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve((reader.result as string).replace(/^\uFEFF/, ''));
    reader.readAsText(blob);
  });
