import type { SignalBus } from '../../signals/signal-bus.ts';
import type { FaceIndexService } from './face-index.service.ts';

/** The faces domain's reactions to domain events: each only enqueues a registry job. */
export const registerFaceListeners = (
  bus: SignalBus,
  faceIndex: Pick<FaceIndexService, 'onPhotoReady' | 'onEventUpdated'>,
): void => {
  bus.on('photo.ready', 'faces: enqueue indexing', ({ photoId, eventId }) =>
    faceIndex.onPhotoReady({ photoId, eventId }),
  );
  bus.on('event.updated', 'faces: enqueue a backfill', ({ eventId }) =>
    faceIndex.onEventUpdated(eventId),
  );
};
