import { INTERNAL_ERROR, isApiError } from '../../../lib/api-client.ts';

/** How long the outbox waits before trying the first waiting action again (or at `online`). */
export const OUTBOX_RETRY_MS = 2000;
/** A server that answers with an error of its own (5xx) is asked this often, then the action fails. */
const MAX_SERVER_ERRORS = 5;

/**
 * Whether a failure is the network's (try again) rather than the server's answer (tell the guest):
 * no reply at all, a reply that is not ours (a proxy's 502/503/504) or a storage POST that never
 * arrived. A refusal with a message key (4xx) is final.
 */
export const isTransientFailure = (error: unknown): 'network' | 'server' | false => {
  if (error instanceof TypeError) return 'network';
  // A check made here (a bad picture, say) carries a key but no status: final.
  if (isApiError(error) && error.status === undefined && error.messageKey !== INTERNAL_ERROR)
    return false;
  const status = isApiError(error)
    ? error.status
    : error instanceof Error && 'status' in error && typeof error.status === 'number'
      ? error.status
      : null;
  if (status === null) return false;
  if (status === undefined || status === 0) return 'network';
  if (status === 502 || status === 503 || status === 504) return 'network';
  if (status >= 500) return 'server';
  return false;
};

interface Entry {
  readonly label: string;
  readonly run: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  serverErrors: number;
}

export interface OutboxState {
  /** Actions not finished yet (the one being tried included). */
  readonly pending: number;
  /** The first action is waiting for the network. */
  readonly waiting: boolean;
}

/**
 * The kiosk's outbox (issue 14 item 4): every action a guest takes (add to album, delete, print,
 * camera uploads) runs through it, one at a time in the order taken. An action that fails for
 * want of a network stays first in line and is tried again every 2 s (and at once when the browser
 * says it is online), so nothing is lost and nothing overtakes it; the server's refusals reject the
 * action's promise for the page to show. Kept in memory: the kiosk screen is not reloaded while a
 * guest is on it, and the session's end waits until the outbox is empty.
 */
export class KioskOutbox {
  private readonly queue: Entry[] = [];
  private running = false;
  private isWaiting = false;
  private wake: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly idle = new Set<() => void>();
  private snapshot: OutboxState = { pending: 0, waiting: false };

  constructor(private readonly retryMs = OUTBOX_RETRY_MS) {}

  /** Queue an action; its promise settles when it has run (after any waits for the network). */
  enqueue<T>(label: string, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        label,
        run,
        resolve: resolve as (value: unknown) => void,
        reject,
        serverErrors: 0,
      });
      this.changed();
      void this.pump();
    });
  }

  /** Try the waiting action now (the browser's `online`, the health check answering). */
  retryNow(): void {
    this.wake?.();
  }

  /** Resolves once every queued action has run. */
  drained(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  getState = (): OutboxState => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Labels of the actions in line, first first (for tests and the banner). */
  labels(): string[] {
    return this.queue.map((entry) => entry.label);
  }

  private changed(): void {
    const next = { pending: this.queue.length, waiting: this.isWaiting };
    if (next.pending !== this.snapshot.pending || next.waiting !== this.snapshot.waiting) {
      this.snapshot = next;
      for (const listener of this.listeners) listener();
    }
    if (this.queue.length === 0) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.retryMs);
      const online = () => done();
      function done() {
        clearTimeout(timer);
        if (typeof window !== 'undefined') window.removeEventListener('online', online);
        resolve();
      }
      if (typeof window !== 'undefined') window.addEventListener('online', online);
      this.wake = done;
    });
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let entry = this.queue[0]; entry; entry = this.queue[0]) {
        try {
          const value = await entry.run();
          this.queue.shift();
          this.isWaiting = false;
          this.changed();
          entry.resolve(value);
        } catch (error) {
          const transient = isTransientFailure(error);
          if (transient === 'server') entry.serverErrors += 1;
          if (transient && entry.serverErrors < MAX_SERVER_ERRORS) {
            this.isWaiting = true;
            this.changed();
            await this.pause();
            this.wake = null;
            continue;
          }
          this.queue.shift();
          this.isWaiting = false;
          this.changed();
          entry.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
