import { describe, expect, it } from 'vitest';
import { albumPageFor, eventNameFrom } from './page-type-route.ts';

describe('which root a location loads', () => {
  it('album links at the site root load the album page', () => {
    expect(albumPageFor({ pathname: '/', search: '?pId=k' })?.page).toEqual({
      kind: 'public-album',
      publicKey: 'k',
      mode: 'grid',
    });
    expect(albumPageFor({ pathname: '/', search: '?kType=evSB1' })?.page).toEqual({
      kind: 'error',
      message: 'Query param &pvId is required',
    });
  });
  it('no key, or any other path, is the console', () => {
    expect(albumPageFor({ pathname: '/', search: '' })).toBeNull();
    expect(albumPageFor({ pathname: '/', search: '?foo=1' })).toBeNull();
    expect(albumPageFor({ pathname: '/events', search: '?pId=k' })).toBeNull();
  });
  it('reads the optional event code', () => {
    expect(eventNameFrom('?pId=k&eName=AB12')).toBe('AB12');
    expect(eventNameFrom('?pId=k&eName=%20')).toBeNull();
  });
});
