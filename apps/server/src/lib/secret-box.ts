import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Keys derived from the one configured secret: one for encryption at rest (AES-256-GCM), one for
 * token signatures (HMAC-SHA256). Deriving keeps the two uses apart.
 */
export class SecretBox {
  private readonly encryptionKey: Buffer;
  readonly signingKey: Buffer;

  constructor(secret: string) {
    this.encryptionKey = createHash('sha256').update(`flashbulb:encrypt:${secret}`).digest();
    this.signingKey = createHash('sha256').update(`flashbulb:sign:${secret}`).digest();
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ['v1', iv, tag, data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable secret');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.encryptionKey,
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  hmac(value: string): string {
    return createHmac('sha256', this.signingKey).update(value).digest('base64url');
  }
}

/** sha-256 of a high-entropy token (refresh tokens, API keys, session handles): fast lookups, nothing reversible stored. */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
