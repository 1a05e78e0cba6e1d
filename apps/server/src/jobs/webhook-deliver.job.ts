import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/**
 * Thin: the webhook service keeps the rules (claim, attempts, backoff, auto-disable). No singleton
 * key: a duplicate job (a resume beside a delayed retry) is harmless, the claim lets one through.
 */
export const webhookDeliverJob = defineJob({
  name: 'webhook.deliver',
  summary: 'One delivery attempt of an outgoing webhook (signed POST) to its endpoint',
  payload: z.object({ deliveryId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  expireSeconds: 60,
  run: async ({ deliveryId }, deps) => {
    if (!deps.webhooks) throw new Error('webhook.deliver needs the webhook service');
    await deps.webhooks.deliver(deliveryId);
  },
});
