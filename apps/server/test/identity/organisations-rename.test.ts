import { endpoints } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAndSignInUser, Role, signedInAdmin, type SignedIn } from '../helpers/identity.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Renaming organisations: super users any, admins their own, nobody else. */

let t: TestApp;
let superUser: SignedIn;
let adminA: SignedIn;
let ownerA: SignedIn;
let orgA: { id: number };
let orgB: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  superUser = await signedInAdmin(t);
  const as = { authorization: superUser.authorization };
  orgA = await t.ok(endpoints.createOrganisation, { name: 'Alpha Events' }, as);
  orgB = await t.ok(endpoints.createOrganisation, { name: 'Beta Booths' }, as);
  adminA = await createAndSignInUser(t, superUser, 'admin-a@example.com', Role.ADMIN, orgA.id);
  ownerA = await createAndSignInUser(
    t,
    superUser,
    'owner-a@example.com',
    Role.EVENT_OWNER,
    orgA.id,
  );
});
afterAll(async () => {
  await t.close();
});

const names = async () =>
  (
    await t.ok(endpoints.listOrganisations, {}, { authorization: superUser.authorization })
  ).organisations.map((o) => o.name);

const errorOf = (response: { statusCode: number; body: unknown }) => ({
  status: response.statusCode,
  ...(response.body as { error: { message_key: string; field?: string } }).error,
});

describe('organisation rename', () => {
  it('lets an admin rename their own organisation and nobody else’s', async () => {
    const renamed = await t.ok(
      endpoints.renameOrganisation,
      { id: orgA.id, name: '  Alpha Weddings ' },
      { authorization: adminA.authorization },
    );
    expect(renamed).toMatchObject({ id: orgA.id, name: 'Alpha Weddings' });

    const other = await t.call(
      endpoints.renameOrganisation,
      { id: orgB.id, name: 'Taken over' },
      { authorization: adminA.authorization },
    );
    expect(errorOf(other)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const owner = await t.call(
      endpoints.renameOrganisation,
      { id: orgA.id, name: 'By the owner' },
      { authorization: ownerA.authorization },
    );
    expect(errorOf(owner)).toMatchObject({ status: 403, message_key: 'forbidden' });
    expect(await names()).toEqual(['Alpha Weddings', 'Beta Booths']);
  });

  it('refuses a name another organisation has, an empty name and an unknown organisation', async () => {
    const as = { authorization: superUser.authorization };
    const duplicate = await t.call(
      endpoints.renameOrganisation,
      { id: orgB.id, name: 'ALPHA weddings' },
      as,
    );
    expect(errorOf(duplicate)).toMatchObject({
      status: 409,
      message_key: 'organisation_exists',
      field: 'name',
    });
    const empty = await t.call(endpoints.renameOrganisation, { id: orgB.id, name: ' ' }, as);
    expect(errorOf(empty)).toMatchObject({
      status: 400,
      message_key: 'organisation_name_required',
    });
    const unknown = await t.call(endpoints.renameOrganisation, { id: 999_999, name: 'Ghost' }, as);
    expect(errorOf(unknown)).toMatchObject({ status: 404, message_key: 'organisation_not_found' });
    // Its own name in another case is fine (the same organisation).
    const recased = await t.ok(
      endpoints.renameOrganisation,
      { id: orgB.id, name: 'BETA Booths' },
      as,
    );
    expect(recased.name).toBe('BETA Booths');
    expect(await names()).toEqual(['Alpha Weddings', 'BETA Booths']);
  });
});
