import {
  endpoints,
  leadConsentVersion,
  photoStreamUrlAt,
  type FlashbulbEvent,
} from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createEvent, createEventWorld, errorOf, type EventWorld } from '../helpers/events.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Leads: the gate of an event that collects leads stores name and e-mail,
 * company, phone and consent as `lead_params` say (the consent's text version and time); those who
 * manage the event list, export (formula-safe CSV) and delete them; "direct album" stores nothing.
 */

let t: TestApp;
let world: EventWorld;
let gated: FlashbulbEvent;
let direct: FlashbulbEvent;

const LEAD_PARAMS = {
  show_company_input_text: 1 as const,
  show_phone_input_text: 1 as const,
  show_agree_checkbox: 1 as const,
  please_read_text: 'We may send you offers from our sponsors.',
  privacy_policy_link: 'https://gala.example/privacy',
};
const publicKey = (e: FlashbulbEvent) => ({
  key_type: 'public' as const,
  key_value: e.public_api_key,
});
const version = leadConsentVersion(LEAD_PARAMS);
const good = {
  full_name: 'Ada Guest',
  email: 'Ada@Example.com',
  company_name: 'Analytical Engines',
  phone: '(555) 123-4567',
  consent: 1 as const,
  consent_version: version,
};
const leadRows = async (e: FlashbulbEvent) =>
  (await t.app.container.repositories.leads.ofEvent(e.id)).length;

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  world = await createEventWorld(t);
  gated = await createEvent(t, world.adminA, {
    full_name: 'Gated Gala',
    collect_leads: 1,
    lead_params: LEAD_PARAMS,
  });
  direct = await createEvent(t, world.adminA, { full_name: 'Open Fair', collect_leads: 0 });
});
afterAll(async () => {
  await t.close();
});

describe('the lead gate', () => {
  it('stores what the guest gave with the consent’s version, text and time', async () => {
    const at = t.clock.now().toISOString();
    const { lead_id } = await t.ok(endpoints.leadSubmit, { ...publicKey(gated), ...good });
    const { leads } = await t.ok(endpoints.leadList, { event_id: gated.id }, as(world.adminA));
    expect(leads).toEqual([
      expect.objectContaining({
        id: lead_id,
        full_name: 'Ada Guest',
        email: 'ada@example.com',
        company_name: 'Analytical Engines',
        phone: '5551234567',
        source: 'public',
        consent_version: version,
        consent_text: 'We may send you offers from our sponsors. https://gala.example/privacy',
        consented_date: at,
      }),
    ]);
  });

  it.each([
    [{ full_name: '  ' }, 'full_name_required', 'full_name'],
    [{ email: 'not-an-address' }, 'email_invalid', 'email'],
    [{ company_name: '' }, 'company_required', 'company_name'],
    [{ phone: '12' }, 'phone_invalid', 'phone'],
    [{ consent: 0 }, 'consent_required', 'consent'],
    [{ consent_version: 'deadbeef' }, 'consent_outdated', 'consent_version'],
  ])('refuses %o with %s and stores nothing', async (change, key, field) => {
    const before = await leadRows(gated);
    const refused = await t.call(endpoints.leadSubmit, {
      ...publicKey(gated),
      ...good,
      email: 'other@example.com',
      ...change,
    });
    expect(errorOf(refused)).toMatchObject({ status: 400, message_key: key, field });
    expect(await leadRows(gated)).toBe(before);
  });

  it('a repeat by the same e-mail updates the one lead', async () => {
    const before = await leadRows(gated);
    await t.ok(endpoints.leadSubmit, {
      ...publicKey(gated),
      ...good,
      email: 'ADA@example.com',
      full_name: 'Ada L.',
    });
    expect(await leadRows(gated)).toBe(before);
    const { leads } = await t.ok(endpoints.leadList, { event_id: gated.id }, as(world.adminA));
    expect(leads.find((l) => l.email === 'ada@example.com')?.full_name).toBe('Ada L.');
  });

  it('a “direct album” event stores no lead', async () => {
    const refused = await t.call(endpoints.leadSubmit, { ...publicKey(direct), ...good });
    expect(errorOf(refused)).toMatchObject({ status: 400, message_key: 'leads_not_collected' });
    expect(await leadRows(direct)).toBe(0);
  });
});

describe('the lead gate on the server (album calls)', () => {
  type Key = { key_type: 'public' | 'private' | 'event_owner'; key_value: string };
  const list = (e: FlashbulbEvent, extra: Record<string, unknown> = {}, key: Key = publicKey(e)) =>
    t.call(endpoints.publicPhotoList, { ...key, max_size: 10, page_number: 1, ...extra });
  const privateKey = (e: FlashbulbEvent) => ({
    key_type: 'private' as const,
    key_value: e.private_api_key,
  });

  it('refuses the public and private keys’ list and download without a lead, with a clear key', async () => {
    for (const key of [publicKey(gated), privateKey(gated)]) {
      expect(errorOf(await list(gated, {}, key))).toMatchObject({
        status: 403,
        message_key: 'lead_required',
        field: 'lead_token',
      });
      const zip = await t.call(endpoints.createAlbumDownload, key);
      expect(errorOf(zip)).toMatchObject({ status: 403, message_key: 'lead_required' });
    }
  });

  it('opens them with the token the lead call answered, for that event only', async () => {
    const { lead_token } = await t.ok(endpoints.leadSubmit, {
      ...publicKey(gated),
      ...good,
      email: 'gate@example.com',
    });
    expect((await list(gated, { lead_token })).statusCode).toBe(200);
    expect((await list(gated, { lead_token }, privateKey(gated))).statusCode).toBe(200);
    const zip = await t.call(endpoints.createAlbumDownload, { ...publicKey(gated), lead_token });
    expect(errorOf(zip).message_key).not.toBe('lead_required');
    // Forged, altered or another event's tokens open nothing.
    const other = await createEvent(t, world.adminA, {
      full_name: 'Other Gala',
      collect_leads: 1,
      lead_params: LEAD_PARAMS,
    });
    const [id, sig] = lead_token.split('.');
    for (const forged of [
      'x',
      `${id}.`,
      `${Number(id) + 1}.${sig}`,
      `${id}.${sig!.slice(0, -1)}A`,
      `${lead_token}.x`,
    ])
      expect(errorOf(await list(gated, { lead_token: forged })).message_key).toBe('lead_required');
    expect(errorOf(await list(other, { lead_token })).message_key).toBe('lead_required');
  });

  it('the live photo stream is refused the same way before it starts', async () => {
    for (const query of [{}, { lead_token: 'x.y' }]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: photoStreamUrlAt('', { ...publicKey(gated), ...query }),
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { message_key: 'lead_required' } });
    }
  });

  it('a deleted lead’s token no longer opens the album', async () => {
    const { lead_id, lead_token } = await t.ok(endpoints.leadSubmit, {
      ...publicKey(gated),
      ...good,
      email: 'forget-me@example.com',
    });
    expect((await list(gated, { lead_token })).statusCode).toBe(200);
    await t.ok(
      endpoints.leadDelete,
      { event_id: gated.id, lead_id_array: [lead_id] },
      as(world.adminA),
    );
    expect(errorOf(await list(gated, { lead_token })).message_key).toBe('lead_required');
  });

  it('lets the organiser’s screens past with the event’s display token, and nothing else', async () => {
    // The token is in the event as those who manage it read it, not in what guests' keys read.
    const managed = (
      await t.ok(endpoints.eventFullData, { event_name: gated.name }, as(world.adminA))
    )[0]!;
    expect(managed.display_token).toBe(gated.display_token);
    const [guestView] = await t.ok(endpoints.publicEventFullData, {
      ...publicKey(direct),
      event_name: direct.name,
    });
    expect(JSON.stringify(guestView)).not.toContain(direct.display_token);
    expect((await list(gated, { display: gated.display_token })).statusCode).toBe(200);
    expect(
      (await list(gated, { display: gated.display_token }, privateKey(gated))).statusCode,
    ).toBe(200);
    const other = await createEvent(t, world.adminA, {
      full_name: 'Screen Gala',
      collect_leads: 1,
      lead_params: LEAD_PARAMS,
    });
    // A guest's `display=1`, a made-up or altered token, another event's token: the gate holds.
    for (const display of ['1', 'true', 'x', `${gated.display_token}x`, other.display_token]) {
      const refused = await list(gated, { display });
      expect(errorOf(refused)).toMatchObject({ status: 403, message_key: 'lead_required' });
    }
    // The old flag as a number is no token either (refused, never a 500).
    const flag = await list(gated, { display: 1 });
    expect(flag.statusCode).toBeGreaterThanOrEqual(400);
    expect(flag.statusCode).toBeLessThan(500);
    // The live stream (a GET query) the same way before it starts (the e2e slide show streams
    // with the token).
    const refused = await t.app.inject({
      method: 'GET',
      url: photoStreamUrlAt('', { ...publicKey(gated), display: '1' }),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { message_key: 'lead_required' } });
  });

  it('asks nothing of owner keys, or events that do not collect leads', async () => {
    const owner = { key_type: 'event_owner' as const, key_value: gated.owner_api_key };
    expect((await list(gated, {}, owner)).statusCode).toBe(200);
    expect((await list(direct)).statusCode).toBe(200);
  });
});

describe('the event’s leads in the console', () => {
  it('export as CSV where no cell can run as a formula', async () => {
    await t.ok(endpoints.leadSubmit, {
      ...publicKey(gated),
      ...good,
      full_name: '=HYPERLINK("https://evil.example","click")',
      email: 'mallory@example.com',
      company_name: '+cmd|calc, "quoted"',
    });
    const { csv, file_name } = await t.ok(
      endpoints.leadExport,
      { event_id: gated.id },
      as(world.adminA),
    );
    expect(file_name).toBe(`leads-${gated.name}.csv`);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'name,email,company,phone,source,consent version,consent text,consented (UTC),created (UTC)',
    );
    const mallory = lines.find((l) => l.includes('mallory@example.com'))!;
    expect(mallory.startsWith(`"'=HYPERLINK(""https://evil.example"",""click"")",`)).toBe(true);
    expect(mallory).toContain(`,"'+cmd|calc, ""quoted""",`);
    // No cell begins with a formula character once read back.
    const cells = mallory.match(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ''));
    for (const cell of cells) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
  });

  it('only those who manage the event read, export or delete its leads', async () => {
    const other = await t.call(endpoints.leadList, { event_id: gated.id }, as(world.adminB));
    expect(errorOf(other)).toMatchObject({ status: 404, message_key: 'event_not_found' });
    // An event owner of the same organisation who does not own this event neither.
    const exported = await t.call(endpoints.leadExport, { event_id: gated.id }, as(world.ownerA));
    expect(errorOf(exported)).toMatchObject({ status: 404, message_key: 'event_not_found' });
  });

  it('delete on request: only the event’s own leads, the rest stay', async () => {
    const { leads } = await t.ok(endpoints.leadList, { event_id: gated.id }, as(world.adminA));
    const ada = leads.find((l) => l.email === 'ada@example.com')!;
    // A lead id given under another event changes nothing.
    const wrongEvent = await t.call(
      endpoints.leadDelete,
      { event_id: direct.id, lead_id_array: [ada.id] },
      as(world.adminA),
    );
    expect(errorOf(wrongEvent)).toMatchObject({ status: 404, message_key: 'not_found' });
    const done = await t.ok(
      endpoints.leadDelete,
      { event_id: gated.id, lead_id_array: [ada.id] },
      as(world.adminA),
    );
    expect(done.deleted).toBe(1);
    const after = await t.ok(endpoints.leadList, { event_id: gated.id }, as(world.adminA));
    expect(after.leads.map((l) => l.email).sort()).toEqual([
      'gate@example.com',
      'mallory@example.com',
    ]);
  });
});
