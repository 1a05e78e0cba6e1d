// Password hashing cost: the server hashes at OWASP's argon2id minimum; the test apps hash at a
// tiny cost (hundreds of hashes per run at ~0.1–0.3 s each were minutes of every suite run).
// Each hash carries its own parameters, so any hasher verifies any hash.
import { endpoints } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../../src/lib/password-hasher.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/identity.ts';
import { createTestApp, TEST_PASSWORD_HASHER, type TestApp } from '../helpers/test-app.ts';

/** The argon2 parameters of a PHC string: `$argon2id$v=19$m=19456,t=2,p=1$salt$hash`. */
const parameters = (hash: string): string => hash.split('$')[3] ?? '';

describe('password hashing cost', () => {
  it('the server hashes with argon2id at 19 MiB, 2 passes, 1 lane', async () => {
    const hash = await new PasswordHasher().hash('correct horse battery staple');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(parameters(hash)).toBe('m=19456,t=2,p=1');
  });

  it('a cheap hash verifies with the server hasher, and a wrong password does not', async () => {
    const hash = await TEST_PASSWORD_HASHER.hash('correct horse battery staple');
    expect(parameters(hash)).not.toBe('m=19456,t=2,p=1');
    const server = new PasswordHasher();
    expect(await server.verify(hash, 'correct horse battery staple')).toBe(true);
    expect(await server.verify(hash, 'correct horse battery stable')).toBe(false);
    expect(await TEST_PASSWORD_HASHER.verifyAgainstDummy('anything')).toBe(false);
  });

  describe('in a test app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('stores the cheap hash, and signs in with it', async () => {
      await t.ok(endpoints.createFirstAdmin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      const { rows } = await t.database.executeSql(
        'select password_hash from users where email = $1',
        [ADMIN_EMAIL],
      );
      expect(parameters(String(rows[0]?.password_hash))).toBe(
        parameters(await TEST_PASSWORD_HASHER.hash('x')),
      );
      const first = await t.ok(endpoints.signIn, {
        username: ADMIN_EMAIL,
        password: ADMIN_PASSWORD,
      });
      expect(first).toHaveProperty('challenge_name', 'MFA_SETUP');
      const wrong = await t.call(endpoints.signIn, {
        username: ADMIN_EMAIL,
        password: 'nope-nope-nope',
      });
      expect(wrong.body.status).not.toBe('ok');
    });
  });
});
