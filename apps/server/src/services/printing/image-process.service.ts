import type { imageProcessSchema } from '@flashbulb/shared';
import type { z } from 'zod';
import type {
  ImageProcessRepository,
  NewImageProcess,
} from '../../repositories/printing/image-process.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { organisationScope } from '../../access/rules.ts';
import { imageProcessForOwner } from '../../presenters/print.presenter.ts';

type ImageProcess = z.infer<typeof imageProcessSchema>;

/**
 * What every organisation starts with. Kept in step with the seed migration 0002_seed_image_processes.sql,
 * which gave organisations created before image processes existed the same steps.
 */
export const DEFAULT_IMAGE_PROCESSES: Omit<NewImageProcess, 'organisationId'>[] = [
  { name: 'Original', kind: 'original', autoPrint: false, position: 0 },
  { name: 'Resize 2000', kind: 'resize', autoPrint: false, position: 1 },
  { name: 'Watermark', kind: 'watermark', autoPrint: false, position: 2 },
  { name: 'Print 4x6', kind: 'print', autoPrint: true, position: 3 },
];

/** Named processing steps per organisation. */
export class ImageProcessService {
  constructor(
    private readonly processes: ImageProcessRepository,
    private readonly access: AccessControl,
  ) {}

  /** Gives a new organisation the default steps (idempotent: only when it has none). */
  async seedDefaults(organisationId: number): Promise<void> {
    if ((await this.processes.countForOrganisation(organisationId)) > 0) return;
    await this.processes.createMany(DEFAULT_IMAGE_PROCESSES.map((p) => ({ ...p, organisationId })));
  }

  async list(
    actor: SignedInUser,
    organisationId: number | undefined,
  ): Promise<{ image_processes: ImageProcess[] }> {
    const scope = organisationScope(actor, organisationId);
    if (scope === null) return { image_processes: [] };
    return { image_processes: (await this.processes.list(scope)).map(imageProcessForOwner) };
  }

  /** The event's steps that print automatically. */
  async autoPrint(
    principal: Principal,
    eventId: number,
  ): Promise<{ image_processes: ImageProcess[] }> {
    const { event } = await this.access.requireEventAccess(principal, 'event.manage', { eventId });
    return {
      image_processes: (await this.processes.listAutoPrintForEvent(event.row.id)).map(
        imageProcessForOwner,
      ),
    };
  }
}
