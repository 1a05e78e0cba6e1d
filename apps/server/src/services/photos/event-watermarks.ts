import type { FastifyBaseLogger as Logger } from 'fastify';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { ImageEngine, WatermarkKind } from '../../repositories/photos/image-engine.ts';
import type { PrintTemplateRepository } from '../../repositories/printing/print-template.repository.ts';
import { layoutAtLongSide, renderSheet } from '../../repositories/printing/sheet-renderer.ts';
import { keyForJob, templateImageKey } from '../../storage/owned-references.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { templateLayoutOf } from '../printing/print-template.service.ts';
import { readAll } from './photo-files.ts';

/** What the event's watermarks are read from. */
export interface WatermarkDeps {
  storage: StorageRepository;
  images: Pick<ImageEngine, 'defaultWatermark'>;
  templates: Pick<PrintTemplateRepository, 'findById'>;
  logger: Pick<Logger, 'warn'>;
}

/**
 * The preview placed in the watermark template's first placeholder (cropped to fill), with its
 * background, overlay and texts, at the preview's size on the template's longer side. A
 * template gone or unreadable leaves the variant out (logged), never the photo.
 */
export const templateWatermark = async (
  deps: WatermarkDeps,
  templateId: number,
  made: { preview: Buffer; width: number; height: number },
): Promise<Buffer | null> => {
  const template = await deps.templates.findById(templateId);
  if (!template) return null;
  try {
    const layout = templateLayoutOf(template);
    const read = async (value: string | null) => {
      if (!value) return null;
      const key = templateImageKey(value, template.organisationId);
      if (!key) {
        deps.logger.warn(
          { templateId, reference: value },
          'storage reference refused: outside the template’s organisation',
        );
        return null;
      }
      const object = await deps.storage.get(key);
      return object ? readAll(object.body, 20 * 1024 * 1024) : null;
    };
    return await renderSheet(
      [made.preview],
      layoutAtLongSide(layout, Math.max(made.width, made.height)),
      {
        background: await read(layout.background_image),
        overlay: await read(layout.overlay_image),
      },
    );
  } catch (error) {
    deps.logger.warn({ err: error, templateId }, 'watermark template not applied');
    return null;
  }
};

/**
 * The event's watermark image for `kind`, read only when it lies in the event's own upload
 * areas (storage/owned-references.ts); a bundled default, a missing file or a refused value
 * gives the built-in watermark.
 */
export const watermarkImage = async (
  deps: WatermarkDeps,
  event: EventRecord,
  kind: WatermarkKind,
): Promise<Buffer> => {
  const key = keyForJob(
    event.row[kind],
    { organisationId: event.row.organisationId, eventCode: event.row.name },
    deps.storage.publicUrl('x').slice(0, -1),
    (details, message) => deps.logger.warn(details, message),
    { eventId: event.row.id, field: kind },
  );
  if (key) {
    try {
      const object = await deps.storage.get(key);
      if (object) return await readAll(object.body, 20 * 1024 * 1024);
    } catch {
      // unreadable: the built-in watermark
    }
  }
  return deps.images.defaultWatermark();
};
