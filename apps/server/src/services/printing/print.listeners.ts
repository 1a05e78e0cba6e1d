import type { SignalBus } from '../../signals/signal-bus.ts';
import type { PrintService } from './print.service.ts';

/**
 * The printing domain's reactions: auto-print on `photo.ready`, stored unlock-and-print
 * requests to the queue on `print.requested`. Each stores print jobs and enqueues their render
 * jobs; a failure is left to the `print.resume` sweep.
 */
export const registerPrintListeners = (
  bus: SignalBus,
  printing: Pick<
    PrintService,
    | 'onPhotoReady'
    | 'onPhotoReadyForStories'
    | 'onVariantReady'
    | 'onPrintRequested'
    | 'onPhotoDeleted'
  >,
): void => {
  bus.on('photo.ready', 'printing: auto-print', ({ photoId, eventId }) =>
    printing.onPhotoReady({ photoId, eventId }),
  );
  bus.on('photo.ready', 'printing: automatic stories from tags', ({ photoId, eventId }) =>
    printing.onPhotoReadyForStories({ photoId, eventId }),
  );
  bus.on('photo.variant_ready', 'printing: auto-print image processes', (notice) =>
    printing.onVariantReady(notice),
  );
  bus.on('photo.deleted', 'printing: remove the photo’s sheets', async ({ photoId, eventId }) => {
    await printing.onPhotoDeleted({ photoId, eventId });
  });
  bus.on('print.requested', 'printing: queue a stored request', ({ printRequestId }) =>
    printing.onPrintRequested({ printRequestId }),
  );
};
