/**
 * An operator's link (logo link, support page) as an absolute http(s) address, or null for
 * anything else (`javascript:`, `data:`, text that is no URL): what a guest page may link to.
 */
export const httpLink = (url: string | null | undefined): string | null => {
  if (!url) return null;
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
};
