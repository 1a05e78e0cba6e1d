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
  /** The stored action's id (its client request id), when the action is kept in storage. */
  readonly storedId?: string;
}

/** An action kept in local storage until it has run: what to do, with what, under which id. */
export interface StoredAction {
  /** The client request id: the server answers a repeated request with this id once. */
  readonly id: string;
  readonly kind: string;
  readonly payload: unknown;
  /** Tries started so far (before a reload too): a retry may find its work already done. */
  tries: number;
}

/**
 * Runs a stored action's kind. `retried` is true when an earlier try may have reached the server
 * (a lost answer, a reload in the middle): the runner then takes "already done" as done.
 */
export type ActionRunner = (
  payload: never,
  context: { id: string; retried: boolean },
) => Promise<unknown>;

/** Where the kiosk's waiting actions are kept: one list per kiosk (its key). */
export const outboxStorageKey = (scope: string): string => `flashbulb-kiosk-outbox:${scope}`;

const readStored = (key: string): StoredAction[] => {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(key) ?? '[]');
    return Array.isArray(parsed)
      ? (parsed as StoredAction[]).filter(
          (a) => a && typeof a.id === 'string' && typeof a.kind === 'string',
        )
      : [];
  } catch {
    return [];
  }
};

const writeStored = (key: string, actions: readonly StoredAction[]): void => {
  try {
    if (actions.length === 0) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(actions));
  } catch {
    // storage full or disabled: the action still waits in memory
  }
};

export interface OutboxState {
  /** Actions not finished yet (the one being tried included). */
  readonly pending: number;
  /** The first action is waiting for the network. */
  readonly waiting: boolean;
}

/**
 * The kiosk's outbox: every action a guest takes (add to album, delete, print,
 * camera uploads) runs through it, one at a time in the order taken. An action that fails for
 * want of a network stays first in line and is tried again every 2 s (and at once when the browser
 * says it is online), so nothing is lost and nothing overtakes it; the server's refusals reject the
 * action's promise for the page to show. Kept in memory: the kiosk screen is not reloaded while a
 * guest is on it, and the session's end waits until the outbox is empty.
 *
 * Actions queued with `enqueueStored` are also kept in local storage (one list per kiosk) until
 * they have run, so a reload in the middle of a session loses none: the next outbox of that kiosk
 * `restore`s and runs them once more under the same id (the client request id the server dedupes
 * by). Camera pictures (too big for local storage) are kept in IndexedDB (kiosk-pictures.ts).
 */
export class KioskOutbox {
  private readonly queue: Entry[] = [];
  private running = false;
  private isWaiting = false;
  private wake: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly idle = new Set<() => void>();
  private snapshot: OutboxState = { pending: 0, waiting: false };

  private stopped = false;
  private restored = false;
  private readonly replayed = new Set<(kind: string, error: unknown) => void>();

  constructor(
    private readonly retryMs = OUTBOX_RETRY_MS,
    private readonly persist: {
      readonly storageKey: string | null;
      readonly runners: Readonly<Record<string, ActionRunner>>;
    } = { storageKey: null, runners: {} },
  ) {}

  /**
   * Queue a stored action (see the class): kept in local storage until it has run, replayed after a
   * reload. Its promise settles like `enqueue`'s.
   */
  enqueueStored<T>(kind: string, payload: unknown): Promise<T> {
    const action: StoredAction = { id: crypto.randomUUID(), kind, payload, tries: 0 };
    const { storageKey } = this.persist;
    if (storageKey) writeStored(storageKey, [...readStored(storageKey), action]);
    return this.enqueueAction(action) as Promise<T>;
  }

  /**
   * The actions an earlier page of this kiosk left waiting (a reload), run once in their order.
   * Once per outbox; `onReplayed` hears how each ended (null: it went through).
   */
  restore(): number {
    const { storageKey } = this.persist;
    if (this.restored || !storageKey) return 0;
    this.restored = true;
    const waiting = readStored(storageKey).filter((a) => a.kind in this.persist.runners);
    writeStored(storageKey, waiting);
    for (const action of waiting)
      this.enqueueAction(action).then(
        () => this.replayed.forEach((listener) => listener(action.kind, null)),
        (error: unknown) => this.replayed.forEach((listener) => listener(action.kind, error)),
      );
    return waiting.length;
  }

  /** Hears how the replayed actions ended (the page that queued them is gone). */
  onReplayed(listener: (kind: string, error: unknown) => void): () => void {
    this.replayed.add(listener);
    return () => this.replayed.delete(listener);
  }

  /** The page goes: nothing more is tried here (stored actions wait for the next page). */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  /** The page is (back) on screen: go on with what waits. */
  resume(): void {
    this.stopped = false;
    void this.pump();
  }

  private enqueueAction(action: StoredAction): Promise<unknown> {
    const runner = this.persist.runners[action.kind];
    if (!runner) return Promise.reject(new Error(`no runner for ${action.kind}`));
    const { storageKey } = this.persist;
    const run = () => {
      const retried = action.tries > 0;
      action.tries += 1;
      if (storageKey)
        writeStored(
          storageKey,
          readStored(storageKey).map((a) =>
            a.id === action.id ? { ...a, tries: action.tries } : a,
          ),
        );
      return (runner as (p: unknown, c: { id: string; retried: boolean }) => Promise<unknown>)(
        action.payload,
        { id: action.id, retried },
      );
    };
    return new Promise((resolve, reject) => {
      this.queue.push({
        label: action.kind,
        run,
        resolve,
        reject,
        serverErrors: 0,
        storedId: action.id,
      });
      this.changed();
      void this.pump();
    });
  }

  /** The action has run (or was refused): it leaves storage. */
  private forget(entry: Entry): void {
    const { storageKey } = this.persist;
    if (!storageKey || !entry.storedId) return;
    writeStored(
      storageKey,
      readStored(storageKey).filter((a) => a.id !== entry.storedId),
    );
  }

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
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      for (let entry = this.queue[0]; entry && !this.stopped; entry = this.queue[0]) {
        try {
          const value = await entry.run();
          if (this.stopped) return;
          this.forget(entry);
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
          if (this.stopped) return;
          this.forget(entry);
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
