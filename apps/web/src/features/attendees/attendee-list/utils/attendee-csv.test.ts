import { describe, expect, it } from 'vitest';
import { attendeesCsv, csvCell, toCsv } from './attendee-csv.ts';

describe('csvCell', () => {
  it('leaves plain text as it is and writes null as an empty field', () => {
    expect(csvCell('ABCD-EFGH-JKMN-PQRS')).toBe('ABCD-EFGH-JKMN-PQRS');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes fields with quotes, commas or line breaks and doubles the quotes', () => {
    expect(csvCell('say "cheese"')).toBe('"say ""cheese"""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it.each(['=1+2', '+31 6 123', '-5', '@SUM(A1)', '\tTAB', '\rCR'])(
    'stops a spreadsheet formula: %j starts with an apostrophe',
    (value) => {
      const cell = csvCell(value);
      expect(cell.replace(/^"/, '').startsWith("'")).toBe(true);
      expect(cell).toContain(value);
    },
  );

  it('neutralises a formula and quotes it when it also holds a quote or comma', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it('keeps a formula character that is not the first one', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('https://x.example/?attId=AB-CD')).toBe('https://x.example/?attId=AB-CD');
  });
});

describe('toCsv and attendeesCsv', () => {
  it('joins fields with commas and rows with CRLF, ending with a line break', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['c,d', null],
      ]),
    ).toBe('a,b\r\n"c,d",\r\n');
  });

  it('writes a header and one row per attendee: id as printed, private id, album link', () => {
    const csv = attendeesCsv(
      [
        {
          display_uid: 'ABCD-EFGH-JKMN-PQRS',
          private_id: 'K7M2P9QX',
          album_url: 'https://a/?attId=1',
        },
        { display_uid: '=EVIL', private_id: null, album_url: 'https://a/?attId=2' },
      ],
      { uid: 'Attendee id', privateId: 'Private id', albumLink: 'Album link' },
    );
    expect(csv.split('\r\n')).toEqual([
      'Attendee id,Private id,Album link',
      'ABCD-EFGH-JKMN-PQRS,K7M2P9QX,https://a/?attId=1',
      "'=EVIL,,https://a/?attId=2",
      '',
    ]);
  });
});
