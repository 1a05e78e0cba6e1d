import { describe, expect, it } from 'vitest';
import { emailListSuggestions, emailSuggestions } from '../src/rules/email-ends.ts';

describe('e-mail endings (opts.emailEnds)', () => {
  const ends = ['gmail.com', 'yahoo.com', 'Hotmail.com', '@icloud.com'];

  it('completes the typed name with every ending', () => {
    expect(emailSuggestions('ann', ends)).toEqual([
      'ann@gmail.com',
      'ann@yahoo.com',
      'ann@hotmail.com',
      'ann@icloud.com',
    ]);
  });

  it('narrows the endings by what follows the @, without case', () => {
    expect(emailSuggestions('ann@', ends)).toHaveLength(4);
    expect(emailSuggestions('Ann.Lee@Ho', ends)).toEqual(['Ann.Lee@hotmail.com']);
    expect(emailSuggestions('ann@zz', ends)).toEqual([]);
  });

  it('offers nothing for an empty field, a complete address, or text that is no address', () => {
    expect(emailSuggestions('', ends)).toEqual([]);
    expect(emailSuggestions('  ', ends)).toEqual([]);
    expect(emailSuggestions('@gm', ends)).toEqual([]);
    expect(emailSuggestions('ann@gmail.com', ends)).toEqual([]);
    expect(emailSuggestions('ann lee', ends)).toEqual([]);
    expect(emailSuggestions('a@b@c', ends)).toEqual([]);
  });

  it('skips empty, repeated and malformed endings, and stops at the maximum', () => {
    expect(emailSuggestions('x', ['', ' ', 'a.com', 'A.com', 'bad ending', 'b@c'])).toEqual([
      'x@a.com',
    ]);
    expect(emailSuggestions('x', ['a.com', 'b.com', 'c.com'], 2)).toEqual(['x@a.com', 'x@b.com']);
  });

  it('no endings: nothing to offer', () => {
    expect(emailSuggestions('ann', [])).toEqual([]);
  });

  it('in a list of addresses, completes the last one and keeps the others', () => {
    expect(emailListSuggestions('a@x.org,bo@g', ends)).toEqual(['a@x.org, bo@gmail.com']);
    expect(emailListSuggestions('a@x.org, ', ends)).toEqual([]);
    expect(emailListSuggestions('bo', ['gmail.com'])).toEqual(['bo@gmail.com']);
  });
});
