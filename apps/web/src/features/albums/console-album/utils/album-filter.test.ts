import { describe, expect, it } from 'vitest';
import {
  formatAlbumHash,
  formatHashDate,
  parseAlbumHash,
  parseHashDate,
  resolveDateRange,
  toPhotoListFields,
  type AlbumFilter,
} from './album-filter.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');

describe('album filter in the URL hash (albums spec §2.2)', () => {
  it('reads every flag key, the attendee id and the file name', () => {
    expect(parseAlbumHash('#v=1&o=0&c=1&cd=0&p=1&pd=0&ai=att-42&fn=IMG_12')).toEqual({
      visible: 1,
      original: 0,
      curatable: 1,
      curated: 0,
      printable: 1,
      printed: 0,
      attendeeUid: 'att-42',
      fileName: 'IMG_12',
    });
  });

  it('reads a hash with or without the leading #, and an empty hash as no filter', () => {
    expect(parseAlbumHash('v=0')).toEqual({ visible: 0 });
    expect(parseAlbumHash('#v=0')).toEqual({ visible: 0 });
    expect(parseAlbumHash('')).toEqual({});
    expect(parseAlbumHash('#')).toEqual({});
  });

  it('reads true/false as flags too, and writes 1/0', () => {
    const filter = parseAlbumHash('#v=true&pd=FALSE');
    expect(filter).toEqual({ visible: 1, printed: 0 });
    expect(formatAlbumHash(filter)).toBe('v=1&pd=0');
  });

  it('ignores unknown keys', () => {
    expect(parseAlbumHash('#zz=1&visible=1&v=1&page=3')).toEqual({ visible: 1 });
  });

  it('drops invalid values, each on its own', () => {
    expect(parseAlbumHash('#v=2&o=yes&c=&cd=1&fn=%20%20&ai=' + 'x'.repeat(101))).toEqual({
      curated: 1,
    });
  });

  it('trims text values', () => {
    expect(parseAlbumHash('#fn=%20party%20&ai=%20a1%20')).toEqual({
      fileName: 'party',
      attendeeUid: 'a1',
    });
  });

  it('round-trips every field through format and parse', () => {
    const filters: AlbumFilter[] = [
      {},
      { visible: 0 },
      {
        visible: 1,
        original: 1,
        curatable: 0,
        curated: 1,
        printable: 0,
        printed: 1,
        attendeeUid: 'a-1',
        fileName: 'with space & ampersand#hash',
      },
      { range: { kind: 'named', amount: 7, unit: 'days' } },
      { range: { kind: 'named', amount: 24, unit: 'hours' } },
      {
        range: {
          kind: 'custom',
          from: '2026-05-01T09:30:00.000Z',
          to: '2026-05-02T18:00:00.000Z',
        },
      },
      { range: { kind: 'custom', from: '2026-05-01T00:00:00.000Z' } },
      { range: { kind: 'custom', to: '2026-05-01T00:00:00.000Z' } },
    ];
    for (const filter of filters) {
      expect(parseAlbumHash(`#${formatAlbumHash(filter)}`)).toEqual(filter);
    }
  });

  it('writes keys in the spec order and spaces as %20', () => {
    expect(formatAlbumHash({ fileName: 'a b', printed: 1, visible: 0, attendeeUid: 'z' })).toBe(
      'v=0&pd=1&ai=z&fn=a%20b',
    );
  });

  it('writes nothing for no filter and skips blank texts', () => {
    expect(formatAlbumHash({})).toBe('');
    expect(formatAlbumHash({ fileName: '  ', attendeeUid: '' })).toBe('');
  });

  describe('date ranges', () => {
    it('reads Last<N>Days and Last<N>Hours as named ranges', () => {
      expect(parseAlbumHash('#rangeLabel=Last7Days').range).toEqual({
        kind: 'named',
        amount: 7,
        unit: 'days',
      });
      expect(parseAlbumHash('#rangeLabel=Last24Hours').range).toEqual({
        kind: 'named',
        amount: 24,
        unit: 'hours',
      });
      expect(parseAlbumHash('#rangeLabel=Last365Days').range).toEqual({
        kind: 'named',
        amount: 365,
        unit: 'days',
      });
    });

    it('drops labels it does not recognise', () => {
      for (const label of ['Last0Days', 'Last7Weeks', 'last7days', 'Last-1Days', 'Today', 'Last']) {
        expect(parseAlbumHash(`#rangeLabel=${label}`).range).toBeUndefined();
      }
    });

    it('resolves Last7Days and Last24Hours to start and end relative to now', () => {
      expect(resolveDateRange(parseAlbumHash('#rangeLabel=Last7Days').range, NOW)).toEqual({
        start: '2026-06-08T12:00:00.000Z',
        end: '2026-06-15T12:00:00.000Z',
      });
      expect(resolveDateRange(parseAlbumHash('#rangeLabel=Last24Hours').range, NOW)).toEqual({
        start: '2026-06-14T12:00:00.000Z',
        end: '2026-06-15T12:00:00.000Z',
      });
      expect(resolveDateRange(parseAlbumHash('#rangeLabel=Last1Hours').range, NOW)).toEqual({
        start: '2026-06-15T11:00:00.000Z',
        end: '2026-06-15T12:00:00.000Z',
      });
    });

    it('reads d1 and d2 as a custom range in UTC, in the formats it accepts', () => {
      expect(parseAlbumHash('#d1=2026-05-01T09:30Z&d2=2026-05-02%2018:00').range).toEqual({
        kind: 'custom',
        from: '2026-05-01T09:30:00.000Z',
        to: '2026-05-02T18:00:00.000Z',
      });
      expect(parseHashDate('2026-05-01')).toBe('2026-05-01T00:00:00.000Z');
      expect(parseHashDate('2026-05-01T09:30:15Z')).toBe('2026-05-01T09:30:15.000Z');
      expect(parseHashDate('2026-05-01T09:30:15.250Z')).toBe('2026-05-01T09:30:15.000Z');
    });

    it('drops impossible or malformed dates', () => {
      for (const value of [
        '2026-02-30',
        '2026-13-01',
        '2026-05-01T25:00',
        '01/05/2026',
        'soon',
        '',
      ]) {
        expect(parseHashDate(value)).toBeUndefined();
      }
      expect(parseAlbumHash('#d1=2026-02-30&d2=2026-03-01').range).toEqual({
        kind: 'custom',
        to: '2026-03-01T00:00:00.000Z',
      });
    });

    it('drops a range that ends before it starts', () => {
      expect(parseAlbumHash('#d1=2026-05-02&d2=2026-05-01&v=1')).toEqual({ visible: 1 });
    });

    it('a recognised rangeLabel wins over d1/d2; an unrecognised one leaves d1/d2 in force', () => {
      expect(parseAlbumHash('#d1=2026-05-01&d2=2026-05-02&rangeLabel=Last7Days').range).toEqual({
        kind: 'named',
        amount: 7,
        unit: 'days',
      });
      expect(
        parseAlbumHash('#d1=2026-05-01&d2=2026-05-02&rangeLabel=Custom%20Range').range,
      ).toEqual({
        kind: 'custom',
        from: '2026-05-01T00:00:00.000Z',
        to: '2026-05-02T00:00:00.000Z',
      });
    });

    it('writes either rangeLabel or d1/d2, never both', () => {
      expect(formatAlbumHash({ range: { kind: 'named', amount: 7, unit: 'days' } })).toBe(
        'rangeLabel=Last7Days',
      );
      expect(
        formatAlbumHash({
          range: { kind: 'custom', from: '2026-05-01T09:30:00.000Z', to: '2026-05-01T09:31:05Z' },
        }),
      ).toBe('d1=2026-05-01T09%3A30Z&d2=2026-05-01T09%3A31%3A05Z');
      expect(formatHashDate('2026-05-01T09:30:00.000Z')).toBe('2026-05-01T09:30Z');
    });
  });

  describe('mapping to the photo list call', () => {
    it('maps every key to its list field', () => {
      expect(
        toPhotoListFields(
          parseAlbumHash('#v=0&o=1&c=1&cd=0&p=1&pd=0&ai=att-1&fn=gala&d1=2026-05-01&d2=2026-05-03'),
          NOW,
        ),
      ).toEqual({
        is_visible: 0,
        is_original: 1,
        is_curatable: 1,
        is_curated: 0,
        printable: 1,
        printed: 0,
        attendee_uid: 'att-1',
        file_name: 'gala',
        start_date: '2026-05-01T00:00:00.000Z',
        end_date: '2026-05-03T00:00:00.000Z',
      });
    });

    it('sends only the start of a named range, so new photos keep matching', () => {
      expect(toPhotoListFields(parseAlbumHash('#rangeLabel=Last24Hours'), NOW)).toEqual({
        start_date: '2026-06-14T12:00:00.000Z',
      });
    });

    it('sends no filter fields for no filter', () => {
      expect(toPhotoListFields({}, NOW)).toEqual({});
    });
  });
});
