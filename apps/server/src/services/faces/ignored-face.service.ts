import type {
  createIgnoredFace,
  deleteIgnoredFaces,
  ignoredFaceSchema,
  ParsedBodyOf,
} from '@flashbulb/shared';
import type { z } from 'zod';
import type { IgnoredFaceRepository } from '../../repositories/faces/ignored-face.repository.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { ignoredFaceForOwner } from '../../presenters/face.presenter.ts';

type IgnoredFace = z.infer<typeof ignoredFaceSchema>;

/** Faces face search must ignore (stored now, used by face search later). */
export class IgnoredFaceService {
  constructor(
    private readonly faces: IgnoredFaceRepository,
    private readonly access: AccessControl,
  ) {}

  private async event(principal: Principal, eventId: number) {
    return (await this.access.requireEventAccess(principal, 'event.manage', { eventId })).event;
  }

  async create(
    principal: Principal,
    input: ParsedBodyOf<typeof createIgnoredFace>,
  ): Promise<IgnoredFace> {
    const event = await this.event(principal, input.event_id);
    return ignoredFaceForOwner(await this.faces.create(event.row.id, input.full_path));
  }

  async list(principal: Principal, eventId: number): Promise<{ faces: IgnoredFace[] }> {
    const event = await this.event(principal, eventId);
    return { faces: (await this.faces.list(event.row.id)).map(ignoredFaceForOwner) };
  }

  async delete(
    principal: Principal,
    input: ParsedBodyOf<typeof deleteIgnoredFaces>,
  ): Promise<{ deleted: number }> {
    const event = await this.event(principal, input.event_id);
    return { deleted: await this.faces.delete(event.row.id, input.ids) };
  }
}
