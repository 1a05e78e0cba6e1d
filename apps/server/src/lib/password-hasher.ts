import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

/** The argon2id cost of new hashes. A hash carries its own, so `verify` reads it from the hash. */
export interface PasswordHashCost {
  /** KiB of memory. */
  memoryCost: number;
  /** Passes. */
  timeCost: number;
  /** Lanes. */
  parallelism: number;
}

/** OWASP's recommended minimum for argon2id (19 MiB, 2 passes, 1 lane): what the server uses. */
export const SERVER_PASSWORD_HASH_COST: PasswordHashCost = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export class PasswordHasher {
  private dummyHash: Promise<string> | null = null;
  private readonly options: PasswordHashCost & { algorithm: typeof ARGON2ID };

  /**
   * The server always takes the default. Only tests pass a lower cost (through
   * `ContainerOptions.passwordHasher`; no setting lowers it).
   */
  constructor(cost: PasswordHashCost = SERVER_PASSWORD_HASH_COST) {
    this.options = { algorithm: ARGON2ID, ...cost };
  }

  hash(password: string): Promise<string> {
    return hash(password, this.options);
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
    this.dummyHash ??= hash('flashbulb-dummy-password-for-timing', this.options);
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
