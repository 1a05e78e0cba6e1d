import type {
  imageProcessSchema,
  PptDetail,
  pptItemSchema,
  PrintJob,
  TemplateLayout,
} from '@flashbulb/shared';
import type { z } from 'zod';
import type { ImageProcessRow } from '../repositories/printing/image-process.repository.ts';
import type { PrintJobRow } from '../repositories/printing/print-job.repository.ts';
import type { PrintTemplateWithOrganisation } from '../repositories/printing/print-template.repository.ts';

export type PrintTemplateItem = z.infer<typeof pptItemSchema>;
type ImageProcess = z.infer<typeof imageProcessSchema>;

/** The photos a print desk shows of a sheet: uid and stored derivatives (thumbnail key). */
export type SheetPhotos = Map<number, { uid: string; derivatives: Record<string, string> | null }>;

/** A sheet on the owner's print desk: its photos by uid and public thumbnail, state and history. */
export const printJobForOwner = (
  r: PrintJobRow,
  photos: SheetPhotos,
  publicUrl: (key: string) => string,
): PrintJob => {
  const sheetPhotos = r.photoIds.flatMap((id) => photos.get(id) ?? []);
  return {
    id: r.id,
    printer_pool_name: r.pool,
    state: r.state,
    photo_uids: sheetPhotos.map((p) => p.uid),
    photo_thumbnails: sheetPhotos.flatMap((p) =>
      p.derivatives?.thumbnail ? [publicUrl(p.derivatives.thumbnail)] : [],
    ),
    copies: r.copies,
    source: r.source,
    printer: r.printer,
    error: r.error,
    reprint_reason: r.reprintReason,
    created_date: r.createdAt.toISOString(),
    updated_date: r.updatedAt.toISOString(),
  };
};

/** A print template in the operator's template lists. */
export const printTemplateItemForOwner = (
  row: PrintTemplateWithOrganisation,
): PrintTemplateItem => ({
  id: row.id,
  name: row.name,
  organisation_id: row.organisationId,
  organisation_name: row.organisationName,
  placeholder_counts: row.placeholderCounts,
  is_public: row.organisationId === null,
  created_date: row.createdAt.toISOString(),
  updated_date: row.updatedAt.toISOString(),
});

/** One print template for the operator's editor: its sheet and the public URLs of its images. */
export const printTemplateDetailForOwner = (
  row: PrintTemplateWithOrganisation,
  layout: TemplateLayout,
  publicUrl: (key: string) => string,
): PptDetail => {
  const url = (key: string | null) => (key ? publicUrl(key) : null);
  return {
    ...printTemplateItemForOwner(row),
    is_watermark: row.isWatermark,
    layout,
    image_urls: {
      background_image: url(layout.background_image),
      overlay_image: url(layout.overlay_image),
    },
  };
};

/** An organisation's image process step, as the operator lists it. */
export const imageProcessForOwner = (row: ImageProcessRow): ImageProcess => ({
  id: row.id,
  name: row.name,
  organisation_id: row.organisationId,
  kind: row.kind,
  auto_print: row.autoPrint,
});
