import { Role } from '@flashbulb/shared';

/**
 * The console's menu, in order: one list for every screen. A screen adds its entry here (and its
 * route in app/console-app.tsx). `roles` lists who sees the entry; the server enforces the same
 * rules on every call (owner console §6), the menu only hides what would be refused.
 */
export interface ConsoleNavItem {
  readonly to: string;
  readonly labelKey: string;
  readonly end: boolean;
  readonly roles?: readonly Role[];
}

const ADMINS = [Role.SUPER_USER, Role.ADMIN] as const;

export const consoleNavItems: readonly ConsoleNavItem[] = [
  { to: '/', labelKey: 'console.nav.overview', end: true },
  { to: '/events', labelKey: 'console.nav.events', end: false },
  { to: '/organisations', labelKey: 'console.nav.organisations', end: false, roles: ADMINS },
  { to: '/robots', labelKey: 'console.nav.robots', end: false, roles: ADMINS },
  { to: '/api-keys', labelKey: 'console.nav.apiKeys', end: false },
  { to: '/users', labelKey: 'console.nav.users', end: false, roles: ADMINS },
  { to: '/print-desk', labelKey: 'console.nav.printDesk', end: false },
  { to: '/payments', labelKey: 'console.nav.payments', end: false },
  { to: '/insight', labelKey: 'console.nav.insight', end: false, roles: ADMINS },
  { to: '/webhooks', labelKey: 'console.nav.webhooks', end: false, roles: ADMINS },
  { to: '/privacy-log', labelKey: 'console.nav.privacyLog', end: false, roles: ADMINS },
  { to: '/outbox', labelKey: 'console.nav.outbox', end: false, roles: [Role.SUPER_USER] },
  { to: '/operations', labelKey: 'console.nav.operations', end: false, roles: [Role.SUPER_USER] },
];

/** The entries a user of this role sees. */
export const navItemsFor = (role: Role): ConsoleNavItem[] =>
  consoleNavItems.filter((item) => !item.roles || item.roles.includes(role));
