import { createHmac, hash } from 'node:crypto';

/** SHA-256's block size: the key is padded to it (RFC 2104). */
const BLOCK = 64;
/** Room for a message in the reused buffer; a longer one takes the plain path. */
const ROOM = 1024;

/**
 * HMAC-SHA256 (RFC 2104) under one fixed key, for many short messages: the key's inner and outer
 * pads are made once, and each message costs two one-shot hashes, H(opad ‖ H(ipad ‖ message)),
 * instead of a new `Hmac` object whose set-up hashes the key again. The digest is byte for byte
 * `createHmac('sha256', key)`'s (test: S/keyed-hmac). A photo list page signs up to 200 media URLs.
 *
 * Not for concurrent use across threads; within one thread the reused buffers are safe because
 * `digest` never awaits.
 */
export class KeyedHmac {
  /** ipad ‖ room for the message. */
  private readonly inner = Buffer.alloc(BLOCK + ROOM);
  /** opad ‖ the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + 32);

  constructor(private readonly key: Buffer) {
    const padded = Buffer.alloc(BLOCK);
    // A key longer than a block is hashed first (RFC 2104 §2).
    (key.length > BLOCK ? hash('sha256', key, 'buffer') : key).copy(padded);
    for (let i = 0; i < BLOCK; i += 1) {
      this.inner[i] = padded[i]! ^ 0x36;
      this.outer[i] = padded[i]! ^ 0x5c;
    }
  }

  /** The HMAC of `message` (UTF-8), base64url. */
  digest(message: string): string {
    // At most three UTF-8 bytes per UTF-16 unit: a cheap bound, no count of the bytes.
    if (message.length * 3 > ROOM) {
      return createHmac('sha256', this.key).update(message, 'utf8').digest('base64url');
    }
    const length = this.inner.write(message, BLOCK, 'utf8');
    hash('sha256', this.inner.subarray(0, BLOCK + length), 'buffer').copy(this.outer, BLOCK);
    return hash('sha256', this.outer, 'base64url');
  }
}
