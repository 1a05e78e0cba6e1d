import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

/** argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class PasswordHasher {
  private dummyHash: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real check, for unknown user names (no enumeration by timing). */
  async verifyAgainstDummy(password: string): Promise<false> {
    this.dummyHash ??= hash('flashbulb-dummy-password-for-timing', OPTIONS);
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
