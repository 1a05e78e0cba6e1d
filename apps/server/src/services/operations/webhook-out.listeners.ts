import type { WebhookEventType } from '@flashbulb/shared';
import type { SignalBus } from '../../signals/signal-bus.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import type { WebhookOutService } from './webhook-out.service.ts';

/**
 * Product facts → outgoing webhooks. Each listener stores the deliveries and enqueues their jobs
 * (no HTTP call inline). The body names what happened by id; receivers read details through the
 * API with their own key.
 */
export const registerWebhookOutListeners = (
  bus: SignalBus,
  deps: { webhooks: Pick<WebhookOutService, 'publish'>; events: Pick<EventRepository, 'findById'> },
): void => {
  const publish = async (
    type: WebhookEventType,
    eventId: number,
    subject: string,
    data: Record<string, unknown>,
  ) => {
    const event = await deps.events.findById(eventId);
    if (!event) return;
    await deps.webhooks.publish({
      type,
      organisationId: event.row.organisationId,
      eventId,
      subject,
      data: { event_id: eventId, event_name: event.row.name, ...data },
    });
  };
  bus.on('photo.ready', 'webhooks: photo.ready', ({ photoId, eventId }) =>
    publish('photo.ready', eventId, String(photoId), { photo_id: photoId }),
  );
  bus.on('attendee.created', 'webhooks: attendee.created', ({ attendeeId, uid, eventId }) =>
    publish('attendee.created', eventId, String(attendeeId), { attendee_uid: uid }),
  );
  bus.on('lead.created', 'webhooks: lead.created', ({ leadId, eventId }) =>
    publish('lead.created', eventId, String(leadId), { lead_id: leadId }),
  );
  bus.on('payment.confirmed', 'webhooks: payment.paid', ({ paymentId, eventId }) =>
    publish('payment.paid', eventId, String(paymentId), { payment_id: paymentId }),
  );
  bus.on('payment.refunded', 'webhooks: payment.refunded', ({ paymentId, eventId }) =>
    publish('payment.refunded', eventId, String(paymentId), { payment_id: paymentId }),
  );
  bus.on('print.finished', 'webhooks: print.finished', ({ printJobId, eventId }) =>
    publish('print.finished', eventId, String(printJobId), { print_job_id: printJobId }),
  );
};
