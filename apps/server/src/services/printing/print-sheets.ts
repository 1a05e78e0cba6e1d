import { DEFAULT_PRINTER_POOL } from '@flashbulb/shared';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { PrintJobRow } from '../../repositories/printing/print-job.repository.ts';
import type {
  PrintTemplateRepository,
  PrintTemplateRow,
} from '../../repositories/printing/print-template.repository.ts';

/** What the printing services share: pools, the event's templates, photos per sheet, dispatch. */

/** A story without a story template: a grid of this many photos on a 4×6 (docs/adr). */
export const STORY_GRID_MIN = 2;
export const STORY_GRID_MAX = 4;

/** A tag as stories compare it: no case, blanks or leading `#` (hash tags are tags too). */
export const tagKey = (tag: string) => tag.trim().replace(/^#/, '').toLowerCase();

/** `requiredTagsToGenerateStory`: a comma list of tags. */
export const storyTags = (list: string): string[] => [
  ...new Set(list.split(',').map(tagKey).filter(Boolean)),
];

/** The pools a print may name: the event's list (when pools are on) and always `Default`. */
export const eventPools = (event: EventRecord): string[] => {
  const list =
    event.row.is_printer_pool_enabled === 1 ? (event.row.printer_pool_name_list ?? []) : [];
  return [...new Set([...list, DEFAULT_PRINTER_POOL])];
};

/** Where an event prints unless told otherwise: its first pool, or `Default`. */
export const defaultPool = (event: EventRecord): string => eventPools(event)[0]!;

/** The event's story template: its first print template with more than one placeholder. */
export const storyTemplateOf = async (
  templates: Pick<PrintTemplateRepository, 'findById'>,
  event: EventRecord,
): Promise<PrintTemplateRow | null> => {
  for (const id of event.pptIds) {
    const row = await templates.findById(id);
    if (row && !row.isWatermark && row.placeholderCounts > 1) return row;
  }
  return null;
};

/**
 * The sheet an event prints on: the first print template of its `ppt_id_array` (albums spec
 * §2.6), or none (a grid of the event's placeholder count on a 4×6).
 */
export const printTemplateOf = async (
  templates: Pick<PrintTemplateRepository, 'findById'>,
  event: EventRecord,
): Promise<PrintTemplateRow | null> => {
  const id = event.pptIds[0];
  if (id === undefined) return null;
  const row = await templates.findById(id);
  return row && !row.isWatermark ? row : null;
};

/** Photos per sheet: the template's placeholders, else the event's placeholder count. */
export const photosPerSheet = (event: EventRecord, template: PrintTemplateRow | null): number =>
  Math.max(1, template ? template.placeholderCounts : event.row.place_holder_count);

/** Hands queued jobs to the renderer (one registry job each; the job is idempotent). */
export const dispatchSheets = async (jobs: JobSender, rows: PrintJobRow[]): Promise<void> => {
  for (const job of rows)
    if (job.state === 'queued') await jobs.send('print.render', { printJobId: job.id });
};
