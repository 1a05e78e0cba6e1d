import { describe, expect, it } from 'vitest';
import { erasePhotoPlan, tableOf } from '../../src/services/attendees/privacy-rules.ts';

describe('what an erasure does with each photo of the album', () => {
  const photo = (id: number, attendeeUid: string | null, eventId = 1) => ({
    id,
    eventId,
    attendeeUid,
  });

  it('deletes a photo uploaded with their id that no other album holds', () => {
    const plan = erasePhotoPlan([photo(1, 'ME')], 'ME', new Map());
    expect(plan.remove.map((p) => p.id)).toEqual([1]);
    expect(plan.detach).toEqual([]);
  });

  it('only takes their id off a photo another attendee’s album holds too', () => {
    const plan = erasePhotoPlan([photo(2, 'ME')], 'ME', new Map([[2, 1]]));
    expect(plan.remove).toEqual([]);
    expect(plan.detach).toEqual([2]);
  });

  it('only detaches the photos of an event whose rule is detach, and deletes the others', () => {
    const plan = erasePhotoPlan(
      [photo(5, 'ME', 1), photo(6, 'ME', 2), photo(7, 'ME', 3)],
      'ME',
      new Map(),
      new Map([
        [1, 'detach'],
        [2, 'delete'],
      ]),
    );
    expect(plan.detach).toEqual([5]);
    expect(plan.remove.map((p) => p.id)).toEqual([6, 7]);
  });

  it('leaves a photo attached to their album in the event (the link goes with the album)', () => {
    const plan = erasePhotoPlan([photo(3, null), photo(4, 'SOMEONE')], 'ME', new Map());
    expect(plan.remove).toEqual([]);
    expect(plan.detach).toEqual([]);
  });
});

describe('tables for the export', () => {
  it('has one header of every key and a line per row, blanks for missing cells', () => {
    expect(
      tableOf([
        { a: 1, b: 'x' },
        { a: 2, c: null },
      ]),
    ).toEqual([
      ['a', 'b', 'c'],
      [1, 'x', null],
      [2, null, null],
    ]);
  });
});
