import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the rules deep in a call may need to know about the request without every service passing
 * it down: the client's address (as FLASHBULB_TRUST_PROXY lets it be read), for budgets counted
 * per address (the attendee-id lookup limits of access/attendee-lookup-limits.ts).
 */
const storage = new AsyncLocalStorage<{ address: string }>();

/**
 * Runs the rest of a request (Fastify's `done` of an `onRequest` hook) as the request from
 * `address`: every route, not only the contract's calls, counts under the same budgets (the live
 * stream and the share pages resolve keys too).
 */
export const runAsRequestFrom = (address: string, next: () => void): void =>
  storage.run({ address }, next);

/** The client address of the request being served, or null outside a request (jobs, the CLI). */
export const clientAddress = (): string | null => storage.getStore()?.address ?? null;
