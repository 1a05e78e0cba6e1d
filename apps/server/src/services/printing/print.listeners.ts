import type { SignalBus } from '../../signals/signal-bus.ts';
import type { AutoPrintService } from './auto-print.service.ts';
import type { SheetPrintService } from './sheet-print.service.ts';

/**
 * The printing domain's reactions: auto-print on `photo.ready`, stored unlock-and-print
 * requests to the queue on `print.requested`. Each stores print jobs and enqueues their render
 * jobs; a failure is left to the `print.resume` sweep.
 */
export const registerPrintListeners = (
  bus: SignalBus,
  autoPrint: Pick<AutoPrintService, 'onPhotoReady' | 'onPhotoReadyForStories' | 'onVariantReady'>,
  sheets: Pick<SheetPrintService, 'onPrintRequested' | 'onPhotoDeleted'>,
): void => {
  bus.on('photo.ready', 'printing: auto-print', ({ photoId, eventId }) =>
    autoPrint.onPhotoReady({ photoId, eventId }),
  );
  bus.on('photo.ready', 'printing: automatic stories from tags', ({ photoId, eventId }) =>
    autoPrint.onPhotoReadyForStories({ photoId, eventId }),
  );
  bus.on('photo.variant_ready', 'printing: auto-print image processes', (notice) =>
    autoPrint.onVariantReady(notice),
  );
  bus.on('photo.deleted', 'printing: remove the photo’s sheets', async ({ photoId, eventId }) => {
    await sheets.onPhotoDeleted({ photoId, eventId });
  });
  bus.on('print.requested', 'printing: queue a stored request', ({ printRequestId }) =>
    sheets.onPrintRequested({ printRequestId }),
  );
};
