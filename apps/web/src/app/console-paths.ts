import { matchPath } from 'react-router';

/**
 * The pages of the signed-in console (its routes in `console-app.tsx`, relative to the site root;
 * a test keeps the two lists equal). Signed out, these go to sign-in; any other address is a page
 * that does not exist, and says so.
 */
export const CONSOLE_PATHS = [
  'events',
  'organisations',
  'robots',
  'users',
  'api-keys',
  'events/:eventCode/album',
  'events/:eventCode/attendees',
  'events/:eventCode/insight',
  'insight',
  'events/:eventCode/orders',
  'outbox',
  'events/:eventCode/outbox',
  'events/:eventCode/moderation',
  'events/:eventCode/leads',
  'imageEdit/index.html',
  'templates',
  'print-desk',
  'payments',
  'webhooks',
  'privacy-log',
  'operations',
] as const;

/** Whether `pathname` is the site root or one of the console's pages. */
export const isConsolePath = (pathname: string): boolean =>
  pathname === '/' || CONSOLE_PATHS.some((path) => matchPath(`/${path}`, pathname) !== null);
