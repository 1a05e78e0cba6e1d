import { describe, expect, it } from 'vitest';
import {
  ATTENDEE_ID_ALPHABET,
  cardCodeFromScan,
  formatAttendeeId,
  isAttendeeIdShape,
  MAX_UPLOAD_ATTENDEES,
  normaliseAttendeeId,
  uploadAttendeeIds,
} from '../src/rules/attendee-id.ts';

describe('attendee ids', () => {
  it('reads an id whatever its dashes, spaces and case', () => {
    expect(normaliseAttendeeId('abcd-efgh jkmn-pqrs')).toBe('ABCDEFGHJKMNPQRS');
    expect(normaliseAttendeeId(' wb-00123 ')).toBe('WB00123');
  });

  it('prints generated ids in groups of four and leaves other ids as they are', () => {
    expect(formatAttendeeId('ABCDEFGHJKMNPQRS')).toBe('ABCD-EFGH-JKMN-PQRS');
    // 16 characters but with a look-alike the alphabet leaves out: not a generated id
    expect(formatAttendeeId('ABCDEFGHJKMNPQR0')).toBe('ABCDEFGHJKMNPQR0');
    expect(formatAttendeeId('WB00123')).toBe('WB00123');
  });

  it('has no look-alike characters in the generated alphabet', () => {
    for (const c of '01OIL') expect(ATTENDEE_ID_ALPHABET).not.toContain(c);
    expect(new Set(ATTENDEE_ID_ALPHABET).size).toBe(ATTENDEE_ID_ALPHABET.length);
  });

  it('accepts 1 to 100 letters, digits, underscores and dots', () => {
    expect(isAttendeeIdShape('A')).toBe(true);
    expect(isAttendeeIdShape('A'.repeat(100))).toBe(true);
    expect(isAttendeeIdShape('A'.repeat(101))).toBe(false);
    expect(isAttendeeIdShape('')).toBe(false);
    expect(isAttendeeIdShape('AB<C')).toBe(false);
    expect(isAttendeeIdShape('ab')).toBe(false); // not normalised
  });
});

describe('kiosk card scan (albums §2.3)', () => {
  it('takes the text after the equals sign of an attId link, without dashes', () => {
    expect(cardCodeFromScan('https://photos.example.com/?attId=ABCD-EFGH-JKMN-PQRS')).toBe(
      'ABCDEFGHJKMNPQRS',
    );
    expect(cardCodeFromScan('https://x.example/?kioskMode=true&attId=abcd-efgh')).toBe('ABCDEFGH');
  });

  it('ignores what follows the id in the link and decodes percent escapes', () => {
    expect(cardCodeFromScan('https://x.example/?attId=ABCD-EFGH#top')).toBe('ABCDEFGH');
    expect(cardCodeFromScan('https://x.example/?attId=ABCD%2DEFGH')).toBe('ABCDEFGH');
  });

  it('takes a bare code as it is', () => {
    expect(cardCodeFromScan('  abcd-efgh-jkmn-pqrs\n')).toBe('ABCDEFGHJKMNPQRS');
  });

  it('answers null when nothing usable was scanned', () => {
    expect(cardCodeFromScan('')).toBeNull();
    expect(cardCodeFromScan('https://x.example/?attId=')).toBeNull();
    expect(cardCodeFromScan('<script>')).toBeNull();
    expect(cardCodeFromScan('%')).toBeNull();
  });
});

describe('the attendees an upload names', () => {
  it('takes one id or a list, normalised, in order, each once', () => {
    expect(uploadAttendeeIds(undefined)).toEqual([]);
    expect(uploadAttendeeIds('')).toEqual([]);
    expect(uploadAttendeeIds(' bib-7 ')).toEqual(['BIB7']);
    expect(uploadAttendeeIds(['bib-7', 'abcd-efgh', 'BIB7'])).toEqual(['BIB7', 'ABCDEFGH']);
    expect(uploadAttendeeIds([])).toEqual([]);
  });

  it('refuses the whole list for one entry that is not an id, or for too many', () => {
    expect(uploadAttendeeIds('a/b')).toBe('invalid_attendee_id');
    expect(uploadAttendeeIds(['BIB7', 'a/b'])).toBe('invalid_attendee_id');
    expect(uploadAttendeeIds(['BIB7', ''])).toBe('invalid_attendee_id');
    const many = Array.from({ length: MAX_UPLOAD_ATTENDEES + 1 }, (_, i) => `G${i}`);
    expect(uploadAttendeeIds(many.slice(0, MAX_UPLOAD_ATTENDEES))).toHaveLength(20);
    expect(uploadAttendeeIds(many)).toBe('too_many_attendees');
    // Long ids: together they must fit a storage key.
    expect(uploadAttendeeIds(Array.from({ length: 7 }, (_, i) => `${i}`.repeat(100)))).toBe(
      'too_many_attendees',
    );
  });
});
