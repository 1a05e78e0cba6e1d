import type { SignalName, Signals } from './signals.ts';

export type SignalListener<N extends SignalName> = (payload: Signals[N]) => Promise<void> | void;

interface Registered {
  name: string;
  listener: (payload: never) => Promise<void> | void;
}

/** What a producer needs: services get this narrow view, never the registration side. */
export interface SignalEmitter {
  emit<N extends SignalName>(signal: N, payload: Signals[N]): Promise<void>;
}

/**
 * The in-process signal bus. Producers `emit` a fact once it is stored; listeners react. (A
 * signal is a fact such as `photo.ready`; an "event" is always the party and its album.)
 *
 * Rules (docs/domains/signals-and-jobs.md):
 * - A listener does no slow work inline: it enqueues a typed, idempotent job (jobs/catalogue.ts)
 *   or sends a short notice.
 * - A failing listener is logged and skipped: it never fails the producer (the caller's request
 *   or job). What a lost listener call would leave undone must be recoverable (e.g. the sweep of
 *   photos stuck in `processing`).
 * - Listeners run one after the other in registration order; `emit` resolves when all are done.
 */
export class SignalBus implements SignalEmitter {
  private readonly listeners = new Map<SignalName, Registered[]>();

  constructor(
    private readonly logger: {
      error(obj: object, msg: string): void;
    },
  ) {}

  /** Registers a listener under a name (for logs); answers the function that removes it. */
  on<N extends SignalName>(signal: N, name: string, listener: SignalListener<N>): () => void {
    const entry: Registered = { name, listener };
    const list = this.listeners.get(signal) ?? [];
    list.push(entry);
    this.listeners.set(signal, list);
    return () => {
      const current = this.listeners.get(signal) ?? [];
      this.listeners.set(
        signal,
        current.filter((e) => e !== entry),
      );
    };
  }

  /** The names of the listeners of a signal (docs and tests). */
  listenersOf(signal: SignalName): string[] {
    return (this.listeners.get(signal) ?? []).map((e) => e.name);
  }

  async emit<N extends SignalName>(signal: N, payload: Signals[N]): Promise<void> {
    for (const { name, listener } of this.listeners.get(signal) ?? []) {
      try {
        await (listener as SignalListener<N>)(payload);
      } catch (error) {
        // The log line keeps its words and fields (`event`, `listener`): operators and alerts
        // read it, and it was written before the bus was renamed.
        this.logger.error(
          { err: error, event: signal, listener: name },
          'domain event listener failed',
        );
      }
    }
  }
}
