import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyedHmac } from '../../src/lib/keyed-hmac.ts';

const hex = (base64url: string) => Buffer.from(base64url, 'base64url').toString('hex');

describe('KeyedHmac (HMAC-SHA256 under one key)', () => {
  // RFC 4231 test cases 1, 2 and 6 (6: a key longer than the block is hashed first).
  it.each([
    [
      Buffer.alloc(20, 0x0b),
      'Hi There',
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    ],
    [
      Buffer.from('Jefe'),
      'what do ya want for nothing?',
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [
      Buffer.alloc(131, 0xaa),
      'Test Using Larger Than Block-Size Key - Hash Key First',
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
  ])('gives the RFC 4231 value (key of %#)', (key, message, expected) => {
    expect(hex(new KeyedHmac(key).digest(message))).toBe(expected);
  });

  it("equals createHmac's digest for every length, in any order of calls, and beyond its buffer", () => {
    const key = randomBytes(32);
    const hmac = new KeyedHmac(key);
    const messages = [
      '',
      'a',
      '123\npreview\no\n1790000000',
      'é✓🙂 multi-byte',
      'x'.repeat(341),
      'y'.repeat(342),
      '🙂'.repeat(300),
      'z'.repeat(5000),
      'short after long',
    ];
    for (let i = 0; i < 200; i += 1) messages.push(randomBytes(i % 97).toString('latin1'));
    for (const message of messages) {
      expect(hmac.digest(message)).toBe(
        createHmac('sha256', key).update(message, 'utf8').digest('base64url'),
      );
    }
  });
});
