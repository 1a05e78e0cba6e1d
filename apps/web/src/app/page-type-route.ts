import { pageTypeFromQuery, type PageContext } from '@flashbulb/shared/rules/page-type';

/**
 * The album page a location asks for (albums spec §2.1), or null for the console: only the site
 * root reads page-type parameters; every other path belongs to the console's routes.
 */
export const albumPageFor = (location: {
  pathname: string;
  search: string;
}): PageContext | null => {
  if (location.pathname !== '/') return null;
  const context = pageTypeFromQuery(location.search);
  return context.page.kind === 'console' ? null : context;
};

/** `eName` (the event code) when a link carries it: the album can then read the event's settings. */
export const eventNameFrom = (search: string): string | null =>
  new URLSearchParams(search).get('eName')?.trim() || null;
