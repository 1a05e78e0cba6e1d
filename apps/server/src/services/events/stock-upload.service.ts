import { imageFieldError } from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { ImageEngine } from '../../repositories/photos/image-engine.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { safeSegments, STOCK_IMAGE_ROOT } from './share-bucket.service.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';

const FACE_ROOT = 'faces';
const FACE_MAX_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/** A public twin's parsed body without its key: the principal already carries it. */
/**
 * The editor's image helpers behind the event-owner key: stock-image thumbnails and uploads of
 * faces for face search to ignore (owner-console §7).
 */
export class StockUploadService {
  constructor(
    private readonly storage: StorageRepository,
    private readonly access: AccessControl,
    private readonly images: ImageEngine,
  ) {}

  private async ownerEvent(
    principal: Principal,
    input: Pick<KeylessBody<'thumbnailForStockImage'>, 'event_name'>,
  ) {
    const grant = await this.access.requireEventAccess(principal, 'event.media_upload', {
      eventName: input.event_name,
    });
    return grant.event;
  }

  async thumbnailForStockImage(principal: Principal, input: KeylessBody<'thumbnailForStockImage'>) {
    const event = await this.ownerEvent(principal, input);
    const area = `${STOCK_IMAGE_ROOT}/${event.row.name}/`;
    // Accept the storage key or its public URL; either way it must lie in this event's area.
    const publicPrefix = this.storage.publicUrl('x').slice(0, -1);
    const key = input.image_url.startsWith(publicPrefix)
      ? decodeURIComponent(input.image_url.slice(publicPrefix.length))
      : input.image_url.replace(/^\/+/, '');
    if (!key.startsWith(area)) throw new AppError('not_found', 'image_url');
    const object = await this.storage.get(key).catch(() => null);
    if (!object) throw new AppError('not_found', 'image_url');
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    let thumbnail: Buffer;
    try {
      thumbnail = await this.images.thumbnail(Buffer.concat(chunks));
    } catch {
      throw new AppError('unsupported_picture_format', 'image_url');
    }
    const directory = input.directory ? safeSegments(input.directory, 'directory') : [];
    const name = (key.split('/').pop() ?? 'image').replace(/\.[^.]+$/, '');
    const thumbnailKey = [
      STOCK_IMAGE_ROOT,
      event.row.name,
      ...directory,
      'thumbnails',
      `${name}.jpg`,
    ].join('/');
    await this.storage.put(thumbnailKey, thumbnail, 'image/jpeg');
    return {
      imgUrl: this.storage.publicUrl(thumbnailKey),
      imgSize: Math.round((thumbnail.length / 1024) * 10) / 10,
    };
  }

  async ignoredFaceUploadAccess(
    principal: Principal,
    input: KeylessBody<'ignoredFaceUploadAccess'>,
  ) {
    const event = await this.ownerEvent(principal, input);
    const [fileName, ...rest] = safeSegments(input.file_name, 'file_name');
    if (!fileName || rest.length) throw new AppError('file_name_invalid', 'file_name');
    if (imageFieldError(fileName)) throw new AppError('unsupported_picture_format', 'file_name');
    const contentType = IMAGE_TYPES[fileName.split('.').pop()?.toLowerCase() ?? ''];
    if (!contentType) throw new AppError('unsupported_picture_format', 'file_name');
    const key = `${FACE_ROOT}/${event.row.name}/ignore/${fileName}`;
    const grant = await this.storage.createUploadGrant({
      key,
      contentType,
      maxBytes: FACE_MAX_BYTES,
    });
    return { ...grant, key, public_url: this.storage.publicUrl(key) };
  }
}
