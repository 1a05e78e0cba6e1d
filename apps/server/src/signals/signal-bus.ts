import type { DomainEventName, DomainEvents } from './domain-events.ts';

export type DomainEventListener<N extends DomainEventName> = (
  payload: DomainEvents[N],
) => Promise<void> | void;

interface Registered {
  name: string;
  listener: (payload: never) => Promise<void> | void;
}

/** What a producer needs: services get this narrow view, never the registration side. */
export interface DomainEventEmitter {
  emit<N extends DomainEventName>(event: N, payload: DomainEvents[N]): Promise<void>;
}

/**
 * The in-process domain event bus. Producers `emit` a fact once it is stored; listeners react.
 *
 * Rules (docs/domains/signals-and-jobs.md):
 * - A listener does no slow work inline: it enqueues a typed, idempotent job (jobs/registry.ts)
 *   or sends a short notice.
 * - A failing listener is logged and skipped: it never fails the producer (the caller's request
 *   or job). What a lost listener call would leave undone must be recoverable (e.g. the sweep of
 *   photos stuck in `processing`).
 * - Listeners run one after the other in registration order; `emit` resolves when all are done.
 */
export class DomainEventBus implements DomainEventEmitter {
  private readonly listeners = new Map<DomainEventName, Registered[]>();

  constructor(
    private readonly logger: {
      error(obj: object, msg: string): void;
    },
  ) {}

  /** Registers a listener under a name (for logs); answers the function that removes it. */
  on<N extends DomainEventName>(
    event: N,
    name: string,
    listener: DomainEventListener<N>,
  ): () => void {
    const entry: Registered = { name, listener };
    const list = this.listeners.get(event) ?? [];
    list.push(entry);
    this.listeners.set(event, list);
    return () => {
      const current = this.listeners.get(event) ?? [];
      this.listeners.set(
        event,
        current.filter((e) => e !== entry),
      );
    };
  }

  /** The names of the listeners of an event (docs and tests). */
  listenersOf(event: DomainEventName): string[] {
    return (this.listeners.get(event) ?? []).map((e) => e.name);
  }

  async emit<N extends DomainEventName>(event: N, payload: DomainEvents[N]): Promise<void> {
    for (const { name, listener } of this.listeners.get(event) ?? []) {
      try {
        await (listener as DomainEventListener<N>)(payload);
      } catch (error) {
        this.logger.error({ err: error, event, listener: name }, 'domain event listener failed');
      }
    }
  }
}
