import { webhookDeliver } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type WebhookDeliverDeps = { webhooks?: { deliver(deliveryId: number): Promise<unknown> } };

export const webhookDeliverJob = defineJob(
  webhookDeliver,
  async ({ deliveryId }, deps: WebhookDeliverDeps) => {
    if (!deps.webhooks) throw new Error('webhook.deliver needs the webhook service');
    await deps.webhooks.deliver(deliveryId);
  },
);
