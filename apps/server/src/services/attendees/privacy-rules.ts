/**
 * What an erasure does with each photo of an attendee's album. A photo uploaded with their id
 * was taken of them (a booth, a ride camera): it is deleted, unless another attendee's album holds
 * it too (a group photo attached to a friend) or its event's rule is `detach` (the operator keeps
 * the event's photos), then it only loses their id. A photo attached to their album (a kiosk
 * pick, a QR scan, a group) belongs to the event: only the link goes.
 */
export const erasePhotoPlan = <
  P extends { id: number; eventId: number; attendeeUid: string | null },
>(
  photos: readonly P[],
  uid: string,
  otherHolders: ReadonlyMap<number, number>,
  eventRules: ReadonlyMap<number, 'delete' | 'detach'> = new Map(),
): { remove: P[]; detach: number[] } => {
  const remove: P[] = [];
  const detach: number[] = [];
  for (const photo of photos) {
    if (photo.attendeeUid !== uid) continue;
    const deletes = (eventRules.get(photo.eventId) ?? 'delete') === 'delete';
    if (deletes && (otherHolders.get(photo.id) ?? 0) === 0) remove.push(photo);
    else detach.push(photo.id);
  }
  return { remove, detach };
};

/** Rows as a CSV's header and lines: every object's keys, in the first object's order. */
export const tableOf = (
  rows: readonly Record<string, string | number | null>[],
): (string | number | null)[][] => {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return [columns, ...rows.map((row) => columns.map((c) => row[c] ?? null))];
};
