import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the rules deep in a call may need to know about the request without every service passing
 * it down: the client's address (as FLASHBULB_TRUST_PROXY lets it be read), for budgets counted
 * per address (the attendee-id lookup limits of access/attendee-lookup-limits.ts).
 */
const storage = new AsyncLocalStorage<{ address: string }>();

/** Runs `work` as part of the request from `address`. */
export const withRequestContext = <T>(address: string, work: () => Promise<T>): Promise<T> =>
  storage.run({ address }, work);

/** The client address of the request being served, or null outside a request (jobs, the CLI). */
export const clientAddress = (): string | null => storage.getStore()?.address ?? null;
