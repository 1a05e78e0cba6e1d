import { describe, expect, it } from 'vitest';
import { httpLink } from './http-link.ts';

describe('httpLink', () => {
  it('keeps http and https addresses, absolute', () => {
    expect(httpLink('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(httpLink('http://example.com')).toBe('http://example.com/');
    expect(httpLink('/support')).toBe(new URL('/support', window.location.href).href);
  });

  it('refuses other schemes and nothing', () => {
    expect(httpLink('javascript:alert(1)')).toBeNull();
    expect(httpLink('data:text/html,<b>x</b>')).toBeNull();
    expect(httpLink('')).toBeNull();
    expect(httpLink(null)).toBeNull();
    expect(httpLink(undefined)).toBeNull();
  });
});
