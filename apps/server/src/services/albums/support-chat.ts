/**
 * The web-app page's support chat (`opts.supportChatKey`). Provider-neutral: the setting is the
 * chat's own https link — a provider's direct chat link (tawk.to, Crisp, a help desk's chat page),
 * `https://wa.me/<number>`, `https://m.me/<page>` — and the page's "Chat with us" launcher opens it
 * in a new tab. The page loads no provider script at all, set or not: nothing of a third party
 * runs on our page, and our content security policy stays as it is. A key that is not an https
 * link (a bare widget id, `http:`, `javascript:`) opens nothing and the launcher is not shown.
 */
export const supportChatUrl = (key: string | null | undefined): string => {
  const trimmed = key?.trim();
  if (!trimmed) return '';
  try {
    const url = new URL(trimmed);
    if (url.protocol !== 'https:' || !url.hostname || url.username || url.password) return '';
    return url.toString();
  } catch {
    return '';
  }
};
