import {
  type ParsedBodyOf,
  type PptDetail,
  type pptCreate,
  type pptList,
  type pptUpdate,
  type TemplateLayout,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type {
  PrintTemplateRepository,
  PrintTemplateRow,
  PrintTemplateWithOrganisation,
} from '../../repositories/printing/print-template.repository.ts';
import { templateImageKey } from '../../storage/owned-references.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import { administersOrganisation, organisationScope } from '../../access/rules.ts';
import {
  mayOwnPublicTemplates,
  mayUseWatermarkTemplates,
  seesPrintTemplate,
} from '../../access/printing-rules.ts';
import { gridLayout } from '../../repositories/printing/sheet-renderer.ts';
import {
  printTemplateDetailForOwner,
  printTemplateItemForOwner,
  type PrintTemplateItem,
} from '../../presenters/print.presenter.ts';

/** A stored template's sheet; a template made before sheets existed is a grid on a 4×6. */
export const templateLayoutOf = (
  row: Pick<PrintTemplateRow, 'layout' | 'placeholderCounts'>,
): TemplateLayout => row.layout ?? gridLayout(row.placeholderCounts);

/**
 * Print and watermark templates ("ppt"; albums spec §7.4). Public ones (no organisation) belong
 * to super users; private ones to their organisation. Watermark templates are admin business
 * (owner-console §6: only admins and super users load that list). Every rule is checked here, on
 * the server; the editor only hides what would be refused.
 */
export class PrintTemplateService {
  constructor(
    private readonly templates: PrintTemplateRepository,
    private readonly storage: Pick<StorageRepository, 'head' | 'publicUrl'>,
    private readonly clock: Clock,
  ) {}

  async list(
    actor: SignedInUser,
    input: ParsedBodyOf<typeof pptList>,
  ): Promise<{ public_ppt_list: PrintTemplateItem[]; private_ppt_list: PrintTemplateItem[] }> {
    const isWatermark = input.is_watermark === true || input.is_watermark === 1;
    if (isWatermark && !mayUseWatermarkTemplates(actor)) throw new AppError('forbidden');
    const scope = organisationScope(actor, input.organisation_id);
    const rows = await this.templates.list(
      isWatermark,
      scope === undefined ? 'all' : (scope ?? -1),
    );
    return {
      public_ppt_list: rows.filter((r) => r.organisationId === null).map(printTemplateItemForOwner),
      private_ppt_list: rows
        .filter((r) => r.organisationId !== null)
        .map(printTemplateItemForOwner),
    };
  }

  /** One template for the editor or the preview: public ones to everyone, private to their organisation. */
  async retrieve(actor: SignedInUser, id: number): Promise<PptDetail> {
    const row = await this.visible(actor, id);
    if (row.isWatermark && !mayUseWatermarkTemplates(actor)) throw new AppError('forbidden');
    return this.detail(row);
  }

  /** Public templates: super users only; private ones: admins of the organisation. */
  async create(actor: SignedInUser, input: ParsedBodyOf<typeof pptCreate>): Promise<PptDetail> {
    let organisationId: number | null;
    if (input.is_public) {
      if (!mayOwnPublicTemplates(actor)) throw new AppError('forbidden', 'is_public');
      organisationId = null;
    } else {
      const scope = organisationScope(actor, input.organisation_id);
      if (scope === undefined || scope === null)
        throw new AppError('organisation_not_found', 'organisation_id');
      organisationId = scope;
    }
    if (!administersOrganisation(actor, organisationId)) throw new AppError('forbidden');
    await this.assertImages(input.layout, organisationId);
    const now = this.clock.now();
    const row = await this.templates.create({
      name: input.name,
      organisationId,
      isWatermark: input.is_watermark,
      placeholderCounts: input.layout.placeholders.length,
      layout: input.layout,
      createdAt: now,
      updatedAt: now,
    });
    const stored = await this.templates.findWithOrganisation(row.id);
    return this.detail(stored ?? { ...row, organisationName: null });
  }

  async update(actor: SignedInUser, input: ParsedBodyOf<typeof pptUpdate>): Promise<PptDetail> {
    const template = await this.visible(actor, input.id);
    if (!administersOrganisation(actor, template.organisationId)) throw new AppError('forbidden');
    await this.assertImages(input.layout, template.organisationId);
    const row = await this.templates.update(template.id, {
      name: input.name,
      layout: input.layout,
      placeholderCounts: input.layout.placeholders.length,
      updatedAt: this.clock.now(),
    });
    if (!row) throw new AppError('template_not_found', 'id');
    return this.detail({ ...row, organisationName: template.organisationName });
  }

  /** Public templates: super users only; private ones: admins of their organisation. */
  async delete(actor: SignedInUser, id: number): Promise<void> {
    const template = await this.visible(actor, id);
    if (!administersOrganisation(actor, template.organisationId)) throw new AppError('forbidden');
    await this.templates.delete(template.id);
  }

  /** Another organisation's private template does not exist as far as its operators know. */
  private async visible(actor: SignedInUser, id: number): Promise<PrintTemplateWithOrganisation> {
    const template = await this.templates.findWithOrganisation(id);
    if (!template || !seesPrintTemplate(actor, template))
      throw new AppError('template_not_found', 'id');
    return template;
  }

  /**
   * Images of a private template come from its organisation's `watermarks/` folder; a public one
   * (super users) may use any organisation's. The file must have been uploaded.
   */
  private async assertImages(layout: TemplateLayout, organisationId: number | null) {
    for (const key of [layout.background_image, layout.overlay_image]) {
      if (key === null) continue;
      if (!templateImageKey(key, organisationId))
        throw new AppError('template_image_invalid', 'layout');
      if (!(await this.storage.head(key))) throw new AppError('template_image_invalid', 'layout');
    }
  }

  private detail(row: PrintTemplateWithOrganisation): PptDetail {
    return printTemplateDetailForOwner(row, templateLayoutOf(row), (key) =>
      this.storage.publicUrl(key),
    );
  }
}
