/** An http(s) address a guest page may link to or load; anything else (javascript:, data:) is dropped. */
export const safeHttpUrl = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
};

/**
 * An image source kept by the editor as a full URL or a storage key: the URL when it is http(s),
 * the key through `publicUrl`; null otherwise.
 */
export const guestImageUrl = (
  value: string | null | undefined,
  publicUrl: (key: string) => string,
): string | null => {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed)
    ? safeHttpUrl(trimmed)
    : publicUrl(trimmed.replace(/^\/+/, ''));
};
