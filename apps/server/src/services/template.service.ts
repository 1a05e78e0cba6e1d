import { Role, type ParsedBodyOf, type pptItemSchema, type pptList } from '@flashbulb/shared';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.ts';
import type {
  PrintTemplateRepository,
  PrintTemplateWithOrganisation,
} from '../repositories/print-template.repository.ts';
import type { Actor } from './actor.ts';
import { administersOrganisation, organisationScope } from '../access/rules.ts';

type PptItem = z.infer<typeof pptItemSchema>;

const mapTemplate = (row: PrintTemplateWithOrganisation): PptItem => ({
  id: row.id,
  name: row.name,
  organisation_id: row.organisationId,
  organisation_name: row.organisationName,
  placeholder_counts: row.placeholderCounts,
  is_public: row.organisationId === null,
  created_date: row.createdAt.toISOString(),
  updated_date: row.updatedAt.toISOString(),
});

/**
 * Print and watermark templates ("ppt"; albums spec §7.4). Public ones (no organisation) belong
 * to super users; private ones to their organisation. Watermark templates are admin business
 * (owner-console §6: only admins and super users load that list).
 */
export class TemplateService {
  constructor(private readonly templates: PrintTemplateRepository) {}

  async list(
    actor: Actor,
    input: ParsedBodyOf<typeof pptList>,
  ): Promise<{ public_ppt_list: PptItem[]; private_ppt_list: PptItem[] }> {
    const isWatermark = input.is_watermark === true || input.is_watermark === 1;
    if (isWatermark && actor.role === Role.EVENT_OWNER) throw new AppError('forbidden');
    const scope = organisationScope(actor, input.organisation_id);
    const rows = await this.templates.list(
      isWatermark,
      scope === undefined ? 'all' : (scope ?? -1),
    );
    return {
      public_ppt_list: rows.filter((r) => r.organisationId === null).map(mapTemplate),
      private_ppt_list: rows.filter((r) => r.organisationId !== null).map(mapTemplate),
    };
  }

  /** Public templates: super users only; private ones: admins of their organisation. */
  async delete(actor: Actor, id: number): Promise<void> {
    const template = await this.templates.findById(id);
    const visible =
      template &&
      (template.organisationId === null ||
        actor.role === Role.SUPER_USER ||
        actor.organisationId === template.organisationId);
    if (!template || !visible) throw new AppError('template_not_found', 'id');
    if (!administersOrganisation(actor, template.organisationId)) throw new AppError('forbidden');
    await this.templates.delete(template.id);
  }
}
