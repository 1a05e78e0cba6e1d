import type { Db } from '../../db/database.ts';
import { webhookEvents } from '../../db/schema.ts';

/** Table `webhook_events`: the provider event ids already taken in (unique per provider). */
export class WebhookEventRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records a webhook's event id and, only when it is new, runs `apply` in the same transaction
   * (both or neither). Answers false for a replay or duplicate: nothing applied.
   */
  async recordOnce(
    provider: string,
    providerEventId: string,
    kind: string,
    apply: (tx: Db) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx
        .insert(webhookEvents)
        .values({ provider, providerEventId, kind })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.id });
      if (inserted.length === 0) return false;
      await apply(tx);
      return true;
    });
  }
}
