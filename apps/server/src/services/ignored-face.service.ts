import type { ignoredFaceSchema } from '@flashbulb/shared';
import type { z } from 'zod';
import type {
  IgnoredFaceRepository,
  IgnoredFaceRow,
} from '../repositories/ignored-face.repository.ts';
import type { Actor } from './actor.ts';
import type { EventAccess } from './event-access.ts';

type IgnoredFace = z.infer<typeof ignoredFaceSchema>;

const mapFace = (row: IgnoredFaceRow): IgnoredFace => ({
  id: row.id,
  event_id: row.eventId,
  full_path: row.fullPath,
  created_date: row.createdAt.toISOString(),
});

/** Faces face search must ignore (stored now, used by face search later). */
export class IgnoredFaceService {
  constructor(
    private readonly faces: IgnoredFaceRepository,
    private readonly access: EventAccess,
  ) {}

  async create(actor: Actor, input: { event_id: number; full_path: string }): Promise<IgnoredFace> {
    const event = await this.access.visibleById(actor, input.event_id);
    return mapFace(await this.faces.create(event.row.id, input.full_path));
  }

  async list(actor: Actor, eventId: number): Promise<{ faces: IgnoredFace[] }> {
    const event = await this.access.visibleById(actor, eventId);
    return { faces: (await this.faces.list(event.row.id)).map(mapFace) };
  }

  async delete(
    actor: Actor,
    input: { event_id: number; ids: number[] },
  ): Promise<{ deleted: number }> {
    const event = await this.access.visibleById(actor, input.event_id);
    return { deleted: await this.faces.delete(event.row.id, input.ids) };
  }
}
