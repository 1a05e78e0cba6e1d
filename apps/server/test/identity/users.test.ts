import { endpoints } from '@flashbulb/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAndSignInUser, Role, signedInAdmin, type SignedIn } from '../helpers/identity.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let superUser: SignedIn;
let orgA: { id: number };
let orgB: { id: number };

beforeEach(async () => {
  t = await createTestApp();
  superUser = await signedInAdmin(t);
  orgA = await t.ok(
    endpoints.createOrganisation,
    { name: 'Alpha Events' },
    { authorization: superUser.authorization },
  );
  orgB = await t.ok(
    endpoints.createOrganisation,
    { name: 'Beta Booths' },
    { authorization: superUser.authorization },
  );
});
afterEach(async () => {
  await t.close();
});

const errorOf = (response: { statusCode: number; body: unknown }) => ({
  status: response.statusCode,
  ...(response.body as { error: { message_key: string; field?: string } }).error,
});

describe('organisations', () => {
  it('lists all for super users and only their own for others', async () => {
    const all = await t.ok(
      endpoints.listOrganisations,
      {},
      { authorization: superUser.authorization },
    );
    expect(all.organisations.map((o) => o.name)).toEqual(['Alpha Events', 'Beta Booths']);
    const admin = await createAndSignInUser(
      t,
      superUser,
      'admin-a@example.com',
      Role.ADMIN,
      orgA.id,
    );
    const own = await t.ok(endpoints.listOrganisations, {}, { authorization: admin.authorization });
    expect(own.organisations).toEqual([
      expect.objectContaining({ id: orgA.id, name: 'Alpha Events' }),
    ]);
  });

  it('lets only super users create organisations, with unique names', async () => {
    const admin = await createAndSignInUser(
      t,
      superUser,
      'admin-a@example.com',
      Role.ADMIN,
      orgA.id,
    );
    const refused = await t.call(
      endpoints.createOrganisation,
      { name: 'Gamma' },
      { authorization: admin.authorization },
    );
    expect(errorOf(refused)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const duplicate = await t.call(
      endpoints.createOrganisation,
      { name: 'alpha events' },
      { authorization: superUser.authorization },
    );
    expect(errorOf(duplicate)).toMatchObject({ status: 409, message_key: 'organisation_exists' });
    const empty = await t.call(
      endpoints.createOrganisation,
      { name: '   ' },
      { authorization: superUser.authorization },
    );
    expect(errorOf(empty)).toMatchObject({
      status: 400,
      message_key: 'organisation_name_required',
      field: 'name',
    });
    const all = await t.ok(
      endpoints.listOrganisations,
      {},
      { authorization: superUser.authorization },
    );
    expect(all.organisations).toHaveLength(2);
  });

  it('refuses anonymous calls', async () => {
    const response = await t.call(endpoints.listOrganisations, {});
    expect(errorOf(response)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
  });
});

describe('user create', () => {
  it('lets an admin create users in their organisation only, never super users', async () => {
    const admin = await createAndSignInUser(
      t,
      superUser,
      'admin-a@example.com',
      Role.ADMIN,
      orgA.id,
    );
    const created = await t.ok(
      endpoints.createUser,
      { email: 'owner-a@example.com', role: Role.EVENT_OWNER },
      { authorization: admin.authorization },
    );
    expect(created).toMatchObject({
      email: 'owner-a@example.com',
      role: Role.EVENT_OWNER,
      organisation_id: orgA.id,
      status: 'FORCE_CHANGE_PASSWORD',
    });

    const otherOrg = await t.call(
      endpoints.createUser,
      { email: 'intruder@example.com', role: Role.EVENT_OWNER, organisation_id: orgB.id },
      { authorization: admin.authorization },
    );
    expect(errorOf(otherOrg)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const makeSuper = await t.call(
      endpoints.createUser,
      { email: 'boss@example.com', role: Role.SUPER_USER },
      { authorization: admin.authorization },
    );
    expect(errorOf(makeSuper)).toMatchObject({ status: 403, message_key: 'forbidden' });
    // Nothing was created by the refused calls.
    for (const email of ['intruder@example.com', 'boss@example.com']) {
      const probe = await t.call(
        endpoints.createUser,
        { email, role: Role.EVENT_OWNER, organisation_id: orgA.id },
        { authorization: superUser.authorization },
      );
      expect(probe.statusCode).toBe(200);
    }
  });

  it('refuses event owners, duplicates, unknown organisations and bad fields', async () => {
    const owner = await createAndSignInUser(
      t,
      superUser,
      'owner@example.com',
      Role.EVENT_OWNER,
      orgA.id,
    );
    const byOwner = await t.call(
      endpoints.createUser,
      { email: 'x@example.com', role: Role.EVENT_OWNER },
      { authorization: owner.authorization },
    );
    expect(errorOf(byOwner)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const duplicate = await t.call(
      endpoints.createUser,
      { email: 'OWNER@example.com', role: Role.EVENT_OWNER, organisation_id: orgA.id },
      { authorization: superUser.authorization },
    );
    expect(errorOf(duplicate)).toMatchObject({
      status: 409,
      message_key: 'user_exists',
      field: 'email',
    });
    const noOrg = await t.call(
      endpoints.createUser,
      { email: 'y@example.com', role: Role.ADMIN, organisation_id: 9999 },
      { authorization: superUser.authorization },
    );
    expect(errorOf(noOrg)).toMatchObject({ status: 404, message_key: 'organisation_not_found' });
    const badEmail = await t.call(
      endpoints.createUser,
      { email: 'not-an-email', role: Role.ADMIN, organisation_id: orgA.id },
      { authorization: superUser.authorization },
    );
    expect(errorOf(badEmail)).toMatchObject({
      status: 400,
      message_key: 'email_invalid',
      field: 'email',
    });
    const badRole = await t.call(
      endpoints.createUser,
      { email: 'z@example.com', role: 7, organisation_id: orgA.id },
      { authorization: superUser.authorization },
    );
    expect(errorOf(badRole)).toMatchObject({
      status: 400,
      message_key: 'role_invalid',
      field: 'role',
    });
    const weak = await t.call(
      endpoints.createUser,
      {
        email: 'w@example.com',
        role: Role.ADMIN,
        organisation_id: orgA.id,
        temporary_password: '12345678',
      },
      { authorization: superUser.authorization },
    );
    expect(errorOf(weak)).toMatchObject({
      status: 400,
      message_key: 'invalid_password',
      field: 'temporary_password',
    });
  });

  it('e-mails a generated temporary password to the outbox, escaped', async () => {
    await t.ok(
      endpoints.createUser,
      { email: "o'brien@example.com", role: Role.EVENT_OWNER, organisation_id: orgA.id },
      { authorization: superUser.authorization },
    );
    const [mail] = await t.app.container.repositories.outbox.list(10, 'mail');
    expect(mail).toMatchObject({
      kind: 'user_invitation',
      recipient: "o'brien@example.com",
      status: 'outbox',
    });
    expect(mail!.content.html).toContain('o&#39;brien@example.com');
    const temporary = /Temporary password: (\S+)/.exec(mail!.content.text)?.[1];
    expect(temporary).toBeTruthy();
    const signIn = await t.ok(endpoints.signIn, {
      username: "o'brien@example.com",
      password: temporary!,
    });
    expect(signIn).toMatchObject({ challenge_name: 'NEW_PASSWORD_REQUIRED' });
  });
});

describe('user management (owner console §6)', () => {
  it('lists, changes, disables and resets two-factor within the caller’s reach only', async () => {
    const su = { authorization: superUser.authorization };
    const adminA = await createAndSignInUser(
      t,
      superUser,
      'admin-a@example.com',
      Role.ADMIN,
      orgA.id,
    );
    const ownerA = await createAndSignInUser(
      t,
      superUser,
      'owner-a@example.com',
      Role.EVENT_OWNER,
      orgA.id,
    );
    const adminB = await createAndSignInUser(
      t,
      superUser,
      'admin-b@example.com',
      Role.ADMIN,
      orgB.id,
    );
    const asA = { authorization: adminA.authorization };
    const asB = { authorization: adminB.authorization };
    const ownerPassword = 'owner-a@example.com-chosen-password';
    const ownerKey = await t.ok(
      endpoints.createApiKey,
      { name: 'cli' },
      { authorization: ownerA.authorization },
    );
    const all = await t.ok(endpoints.listUsers, {}, su);
    const ownerId = all.users.find((u) => u.email === 'owner-a@example.com')!.id;
    const adminAId = all.users.find((u) => u.email === 'admin-a@example.com')!.id;
    expect(all.users.map((u) => u.email)).toEqual([
      'admin-a@example.com',
      'admin-b@example.com',
      'admin@example.com',
      'owner-a@example.com',
    ]);

    // Lists: admins see their organisation (never super users); event owners are refused.
    const listA = await t.ok(endpoints.listUsers, {}, asA);
    expect(listA.users.map((u) => u.email)).toEqual(['admin-a@example.com', 'owner-a@example.com']);
    expect(
      errorOf(await t.call(endpoints.listUsers, { organisation_id: orgB.id }, asA)),
    ).toMatchObject({ status: 403, message_key: 'forbidden' });
    expect(
      errorOf(await t.call(endpoints.listUsers, {}, { authorization: ownerA.authorization })),
    ).toMatchObject({ status: 403, message_key: 'forbidden' });
    const onlyB = await t.ok(endpoints.listUsers, { organisation_id: orgB.id }, su);
    expect(onlyB.users.map((u) => u.email)).toEqual(['admin-b@example.com']);

    // Another organisation's admin finds nobody and changes nothing.
    const snapshot = JSON.stringify((await t.ok(endpoints.listUsers, {}, su)).users);
    for (const call of [
      t.call(endpoints.updateUser, { id: ownerId, disabled: true }, asB),
      t.call(endpoints.updateUser, { id: ownerId, organisation_id: orgB.id }, asB),
      t.call(endpoints.resetUserMfa, { id: ownerId }, asB),
    ]) {
      expect(errorOf(await call)).toMatchObject({ status: 404, message_key: 'user_not_found' });
    }
    // Admins never make super users, never move users out, never change themselves.
    expect(
      errorOf(await t.call(endpoints.updateUser, { id: ownerId, role: 1 }, asA)),
    ).toMatchObject({
      status: 403,
      message_key: 'forbidden',
      field: 'role',
    });
    expect(
      errorOf(await t.call(endpoints.updateUser, { id: ownerId, organisation_id: orgB.id }, asA)),
    ).toMatchObject({ status: 403, message_key: 'forbidden', field: 'organisation_id' });
    expect(
      errorOf(await t.call(endpoints.updateUser, { id: adminAId, disabled: true }, asA)),
    ).toMatchObject({ status: 403, message_key: 'forbidden' });
    expect(
      errorOf(await t.call(endpoints.updateUser, { id: ownerId, organisation_id: 99_999 }, su)),
    ).toMatchObject({ status: 404, message_key: 'organisation_not_found' });
    expect(
      errorOf(await t.call(endpoints.updateUser, { id: ownerId, disabled: 'yes' }, su)),
    ).toMatchObject({ status: 400, message_key: 'invalid_value', field: 'disabled' });
    expect(JSON.stringify((await t.ok(endpoints.listUsers, {}, su)).users)).toBe(snapshot);

    // Role change by the organisation's admin takes effect on the next request.
    const promoted = await t.ok(endpoints.updateUser, { id: ownerId, role: Role.ADMIN }, asA);
    expect(promoted).toMatchObject({ role: Role.ADMIN, organisation_id: orgA.id, disabled: false });
    const me = await t.ok(endpoints.myInfo, {}, { authorization: ownerA.authorization });
    expect(me.role).toBe(Role.ADMIN);
    await t.ok(endpoints.updateUser, { id: ownerId, role: Role.EVENT_OWNER }, asA);

    // Disabled: the session, the API key, the refresh token and the password all stop working.
    const disabled = await t.ok(endpoints.updateUser, { id: ownerId, disabled: true }, asA);
    expect(disabled.disabled).toBe(true);
    for (const authorization of [ownerA.authorization, ownerKey.api_key]) {
      expect(errorOf(await t.call(endpoints.myInfo, {}, { authorization }))).toMatchObject({
        status: 401,
        message_key: 'unauthorized_user',
      });
    }
    expect(
      errorOf(await t.call(endpoints.refresh, { refresh_token: ownerA.refreshToken })),
    ).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
    expect(
      errorOf(
        await t.call(endpoints.signIn, {
          username: 'owner-a@example.com',
          password: ownerPassword,
        }),
      ),
    ).toMatchObject({ status: 403, message_key: 'user_disabled' });
    // A wrong password says nothing about the account.
    expect(
      errorOf(
        await t.call(endpoints.signIn, { username: 'owner-a@example.com', password: 'nope-nope' }),
      ),
    ).toMatchObject({ status: 400, message_key: 'user_name_or_password_incorrect' });

    await t.ok(endpoints.updateUser, { id: ownerId, disabled: false }, asA);
    const again = await t.ok(endpoints.signIn, {
      username: 'owner-a@example.com',
      password: ownerPassword,
    });
    expect(again).toMatchObject({ challenge_name: 'SOFTWARE_TOKEN_MFA' });
    await t.ok(endpoints.myInfo, {}, { authorization: ownerKey.api_key });

    // Reset two-factor: the authenticator is forgotten and set up again at the next sign-in.
    const reset = await t.ok(endpoints.resetUserMfa, { id: ownerId }, asA);
    expect(reset.mfa_enabled).toBe(false);
    const afterReset = await t.ok(endpoints.signIn, {
      username: 'owner-a@example.com',
      password: ownerPassword,
    });
    expect(afterReset).toMatchObject({ challenge_name: 'MFA_SETUP' });

    // Super users move users between organisations.
    const moved = await t.ok(endpoints.updateUser, { id: ownerId, organisation_id: orgB.id }, su);
    expect(moved).toMatchObject({ organisation_id: orgB.id, organisation_name: 'Beta Booths' });
    expect((await t.ok(endpoints.listUsers, {}, asA)).users.map((u) => u.email)).toEqual([
      'admin-a@example.com',
    ]);
  });
});

describe('API keys', () => {
  it('are shown once, work as Authorization, and stop working when deleted', async () => {
    const created = await t.ok(
      endpoints.createApiKey,
      { name: 'Booth robot' },
      { authorization: superUser.authorization },
    );
    expect(created.api_key).toMatch(/^fbk_/);
    const me = await t.ok(endpoints.myInfo, {}, { authorization: created.api_key });
    expect(me.role).toBe(Role.SUPER_USER);
    const listed = await t.ok(
      endpoints.listApiKeys,
      {},
      { authorization: superUser.authorization },
    );
    expect(listed.api_keys).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.api_key);
    const firstUse = listed.api_keys[0]!.last_used_date;
    expect(firstUse).not.toBeNull();
    // "Last used" moves once a minute, not on every call.
    t.clock.advance(30_000);
    await t.ok(endpoints.myInfo, {}, { authorization: created.api_key });
    const again = await t.ok(endpoints.listApiKeys, {}, { authorization: superUser.authorization });
    expect(again.api_keys[0]!.last_used_date).toBe(firstUse);
    t.clock.advance(31_000);
    await t.ok(endpoints.myInfo, {}, { authorization: created.api_key });
    const later = await t.ok(endpoints.listApiKeys, {}, { authorization: superUser.authorization });
    expect(Date.parse(later.api_keys[0]!.last_used_date!)).toBe(Date.parse(firstUse!) + 61_000);
    // Stored hashed: the database never holds the key.
    const rows = await t.database.executeSql('select key_hash from api_keys');
    expect(JSON.stringify(rows)).not.toContain(created.api_key);

    await t.ok(
      endpoints.deleteApiKey,
      { id: created.id },
      { authorization: superUser.authorization },
    );
    const after = await t.call(endpoints.myInfo, {}, { authorization: created.api_key });
    expect(errorOf(after)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
    const missing = await t.call(
      endpoints.deleteApiKey,
      { id: created.id },
      { authorization: superUser.authorization },
    );
    expect(errorOf(missing)).toMatchObject({ status: 404, message_key: 'api_key_not_found' });
  });

  it('cannot be deleted by another user', async () => {
    const created = await t.ok(
      endpoints.createApiKey,
      { name: 'mine' },
      { authorization: superUser.authorization },
    );
    const other = await createAndSignInUser(
      t,
      superUser,
      'admin-b@example.com',
      Role.ADMIN,
      orgB.id,
    );
    const refused = await t.call(
      endpoints.deleteApiKey,
      { id: created.id },
      { authorization: other.authorization },
    );
    expect(errorOf(refused)).toMatchObject({ status: 404, message_key: 'api_key_not_found' });
    await t.ok(endpoints.myInfo, {}, { authorization: created.api_key });
    const noName = await t.call(
      endpoints.createApiKey,
      { name: '' },
      { authorization: superUser.authorization },
    );
    expect(errorOf(noName)).toMatchObject({ status: 400, message_key: 'api_key_name_required' });
  });
});

describe('first administrator', () => {
  it('can be created only once', async () => {
    const status = await t.ok(endpoints.setupStatus, {});
    expect(status.needs_first_admin).toBe(false);
    const again = await t.call(endpoints.createFirstAdmin, {
      email: 'second@example.com',
      password: 'another good password',
    });
    expect(errorOf(again)).toMatchObject({ status: 409, message_key: 'setup_already_done' });
  });
});
