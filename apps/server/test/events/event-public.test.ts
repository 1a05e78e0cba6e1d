import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { senderFor } from '../../src/services/messaging/event-from-address.service.ts';
import {
  as,
  createEvent,
  errorOf,
  eventWorldPerFile,
  readEvent,
  type EventWorld,
} from '../helpers/events.ts';
import type { TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let w: EventWorld;

eventWorldPerFile(
  (app, world) => {
    t = app;
    w = world;
  },
  { FLASHBULB_PUBLIC_URL: 'https://photos.example' },
);

const verificationMails = async (to: string) =>
  (await t.app.container.repositories.outbox.list(200, 'mail')).filter(
    (m) => m.kind === 'event_from_address_verification' && m.recipient === to,
  );

const tokenOf = (text: string): string => {
  const match = /verify-from-address\?token=([\w%-]+)/.exec(text);
  if (!match) throw new Error(`no link in ${text}`);
  return decodeURIComponent(match[1]!);
};

describe('from-address verification', () => {
  it('mails a one-time link when the address is set or changed; the link verifies once', async () => {
    const event = await createEvent(t, w.ownerA, {
      full_name: '<b>Gala</b> & co',
      email_from_address: 'first@gala.example',
    });
    expect(event.email_from_address_verified).toBe(false);
    // Exactly one link per address set.
    const mailMails = await verificationMails('first@gala.example');
    expect(mailMails).toHaveLength(1);
    const [mail] = mailMails;
    expect(mail!.content.text).toContain('https://photos.example/verify-from-address?token=');
    expect(mail!.content.html).toContain('&lt;b&gt;Gala&lt;/b&gt; &amp; co');
    expect(mail!.content.html).not.toContain('<b>Gala</b>');
    const token = tokenOf(mail!.content.text);
    const { rows } = await t.database.executeSql('select * from from_address_verifications');
    expect(JSON.stringify(rows)).not.toContain(token);

    expect(await t.ok(endpoints.verifyFromAddress, { token })).toEqual({
      email_from_address: 'first@gala.example',
    });
    const verified = await readEvent(t, w.superUser, event.name);
    expect(verified.email_from_address_verified).toBe(true);
    // Verifying does not count as an edit: the editor's copy is still current.
    expect(verified.updated_date).toBe(event.updated_date);
    const again = await t.call(endpoints.verifyFromAddress, { token });
    expect(errorOf(again)).toMatchObject({ status: 400, message_key: 'verification_link_invalid' });

    // Other edits keep the verification; a new address needs a new one.
    const edited = await t.ok(
      endpoints.updateEvent,
      { id: event.id, event_last_updated_date: event.updated_date, hash_tag: '#x' },
      as(w.ownerA),
    );
    expect(edited.email_from_address_verified).toBe(true);
    expect(await verificationMails('first@gala.example')).toHaveLength(1);
    const changed = await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: edited.updated_date,
        email_from_address: 'second@gala.example',
      },
      as(w.ownerA),
    );
    expect(changed.email_from_address_verified).toBe(false);
    // Exactly one link per address set.
    const secondMails = await verificationMails('second@gala.example');
    expect(secondMails).toHaveLength(1);
    const [second] = secondMails;

    // A link for an address the event no longer has does nothing.
    const third = await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: changed.updated_date,
        email_from_address: 'third@gala.example',
      },
      as(w.ownerA),
    );
    const stale = await t.call(endpoints.verifyFromAddress, {
      token: tokenOf(second!.content.text),
    });
    expect(errorOf(stale)).toMatchObject({ status: 400, message_key: 'verification_link_invalid' });
    expect((await readEvent(t, w.superUser, event.name)).email_from_address_verified).toBe(false);
    expect(third.email_from_address).toBe('third@gala.example');
  });

  it('refuses a link after 7 days and unknown tokens', async () => {
    await createEvent(t, w.adminA, { email_from_address: 'late@gala.example' });
    const [mail] = await verificationMails('late@gala.example');
    t.clock.advance(7 * 86_400_000 + 1000);
    try {
      const late = await t.call(endpoints.verifyFromAddress, {
        token: tokenOf(mail!.content.text),
      });
      expect(errorOf(late)).toMatchObject({
        status: 400,
        message_key: 'verification_link_invalid',
      });
    } finally {
      t.clock.advance(-(7 * 86_400_000 + 1000));
    }
    const unknown = await t.call(endpoints.verifyFromAddress, { token: 'x'.repeat(43) });
    expect(errorOf(unknown)).toMatchObject({
      status: 400,
      message_key: 'verification_link_invalid',
    });
  });

  it('sends from the platform address until the event address is verified', () => {
    const event = {
      email_from_address: 'photos@gala.example',
      email_from_name: 'Gala "Photos"\r\nBcc: x',
      emailFromAddressVerified: false,
    };
    expect(senderFor(event, 'Flashbulb <no-reply@flashbulb.local>')).toBe(
      'Flashbulb <no-reply@flashbulb.local>',
    );
    expect(senderFor({ ...event, emailFromAddressVerified: true }, 'platform')).toBe(
      '"Gala  Photos   Bcc: x" <photos@gala.example>',
    );
  });
});

describe('public twin of full data', () => {
  let event: FlashbulbEvent;
  let robotKey: string;
  let otherRobotKey: string;

  beforeAll(async () => {
    const robot = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Cam' },
      as(w.adminA),
    );
    const other = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Idle' },
      as(w.adminA),
    );
    robotKey = robot.api_key;
    otherRobotKey = other.api_key;
    event = await createEvent(t, w.ownerA, {
      robot_id_array: [robot.id],
      secret_code_list: 'Ann_Lee_AB12',
      stripe_secret_key: 'sk_public_twin',
    });
  });

  const fetchWith = (key_type: string, key_value: string, event_name = event.name) =>
    t.call(endpoints.publicEventFullData, { key_type, key_value, event_name });

  // What each key type receives, field by field: guest-presenters.test.ts.
  it('answers the event to each key type (its own allow-list; never a secure field)', async () => {
    const owner = await fetchWith('event_owner', event.owner_api_key);
    const [asOwner] = (owner.body as { result: Record<string, unknown>[] }).result;
    // The event-owner key (roaming photographers): no other key, no unlock codes, no display token.
    const {
      private_api_key: _p,
      public_api_key: _q,
      secret_code_list: _c,
      display_token: _d,
      ...ownerView
    } = event;
    expect(asOwner).toEqual(ownerView);
    for (const [type, key, name] of [
      ['private', event.private_api_key, event.name],
      ['public', event.public_api_key.trim(), event.name],
      ['robot', robotKey, event.name.toLowerCase()],
    ] as const) {
      const response = await fetchWith(type, key, name);
      expect(response.statusCode, type).toBe(200);
      const text = JSON.stringify(response.body);
      expect(text).toContain(event.full_name);
      for (const secret of [
        'sk_public_twin',
        'Ann_Lee_AB12',
        event.owner_api_key,
        event.private_api_key,
        event.public_api_key,
      ])
        expect(text, type).not.toContain(secret);
    }
    expect(JSON.stringify(owner.body)).not.toContain('sk_public_twin');
  });

  it('answers 401 invalid_key to a wrong key, another kind of key or an unknown event', async () => {
    const cases: [string, string, string?][] = [
      ['event_owner', event.private_api_key],
      ['private', event.public_api_key],
      ['public', 'wrong-key'],
      ['robot', event.owner_api_key],
      ['attendee', event.public_api_key],
      ['event_owner', event.owner_api_key, 'ZZZZ'],
      ['nonsense', event.owner_api_key],
    ];
    for (const [type, key, name] of cases) {
      const response = await fetchWith(type, key, name);
      expect(errorOf(response), `${type} ${name ?? ''}`).toMatchObject({
        status: 401,
        message_key: 'invalid_key',
      });
      expect(JSON.stringify(response.body)).not.toContain(event.full_name);
    }
  });

  it('tells a right robot key that feeds no event so (its holder knows the key is right), naming nothing', async () => {
    const response = await fetchWith('robot', otherRobotKey);
    expect(errorOf(response)).toMatchObject({ status: 403, message_key: 'robot_not_attached' });
    expect(JSON.stringify(response.body)).not.toContain(event.full_name);
  });
});

describe('share bucket', () => {
  const readSettingsFile = async (name: string) => {
    const object = await t.app.container.storage.get(`data/${name}.json`);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return {
      contentType: object.contentType,
      json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
    };
  };

  it('writes data/<code>.json on create and update, and removes it with the event', async () => {
    const event = await createEvent(t, w.ownerA, {
      empty_album_text: 'Soon!',
      stripe_secret_key: 'sk_not_in_file',
      opts: {
        description: 'Gala',
        ogpTitle: 'Our gala',
        vipToken: 'vip-secret',
        shopDomain: 'shop.example',
      },
    });
    const file = await readSettingsFile(event.name);
    expect(file?.contentType).toBe('application/json');
    expect(file?.json).toMatchObject({
      id: event.id,
      name: event.name,
      empty_album_text: 'Soon!',
      opts: { description: 'Gala', ogpTitle: 'Our gala', pictureSize: 250 },
    });
    const text = JSON.stringify(file?.json);
    for (const secret of [
      'vip-secret',
      'shop.example',
      'sk_not_in_file',
      event.owner_api_key,
      event.private_api_key,
    ]) {
      expect(text).not.toContain(secret);
    }
    const updated = await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: event.updated_date,
        empty_album_text: 'Any minute now',
      },
      as(w.ownerA),
    );
    expect((await readSettingsFile(updated.name))?.json.empty_album_text).toBe('Any minute now');
    // A refused save leaves the file as it was.
    await t.call(
      endpoints.updateEvent,
      { id: event.id, event_last_updated_date: event.updated_date, empty_album_text: 'stale' },
      as(w.ownerA),
    );
    expect((await readSettingsFile(updated.name))?.json.empty_album_text).toBe('Any minute now');
    await t.ok(endpoints.deleteEvent, { event_id: event.id }, as(w.ownerA));
    expect(await readSettingsFile(event.name)).toBeNull();
  });

  it('grants uploads inside the organisation’s share area only', async () => {
    const grant = await t.ok(
      endpoints.shareBucketUploadAccess,
      { relativeFilePath: 'webapp-etc/ABCD/logo.PNG' },
      as(w.ownerA),
    );
    expect(grant.key).toBe(`share/${w.orgA.id}/webapp-etc/ABCD/logo.PNG`);
    expect(grant.fields.key).toBe(grant.key);
    expect(grant.fields['Content-Type'] ?? grant.fields['content-type']).toBe('image/png');
    expect(grant.url).toContain('https://photos.example');
    expect(grant.public_url).toContain(grant.key);
    const bySuper = await t.ok(
      endpoints.shareBucketUploadAccess,
      { relativeFilePath: 'a.mp4', organisation_id: w.orgB.id },
      as(w.superUser),
    );
    expect(bySuper.key).toBe(`share/${w.orgB.id}/a.mp4`);

    const refused: [string, string, number][] = [
      ['../other/logo.png', 'file_name_invalid', 400],
      ['/abs/logo.png', 'file_name_invalid', 400],
      ['a//b.png', 'file_name_invalid', 400],
      ['web#app/logo.png', 'file_name_invalid', 400],
      ['logo?.png', 'file_name_invalid', 400],
      ['logo.exe', 'unsupported_picture_format', 400],
      ['logo', 'unsupported_picture_format', 400],
    ];
    for (const [relativeFilePath, key, status] of refused) {
      const response = await t.call(
        endpoints.shareBucketUploadAccess,
        { relativeFilePath },
        as(w.adminA),
      );
      expect(errorOf(response), relativeFilePath).toMatchObject({
        status,
        message_key: key,
        field: 'relativeFilePath',
      });
    }
    const superWithoutOrg = await t.call(
      endpoints.shareBucketUploadAccess,
      { relativeFilePath: 'a.png' },
      as(w.superUser),
    );
    expect(errorOf(superWithoutOrg)).toMatchObject({
      status: 404,
      message_key: 'organisation_not_found',
    });
  });

  it('grants stock-image uploads to the event owner key only', async () => {
    const event = await createEvent(t, w.ownerA);
    const ask = (body: Record<string, unknown>) =>
      t.call(endpoints.stockImageUploadAccess, {
        key_type: 'event_owner',
        key_value: event.owner_api_key,
        event_name: event.name,
        directory: 'stock',
        file_name: 'banner.JPG',
        ...body,
      });
    const image = (await ask({})).body as {
      result: { key: string; fields: Record<string, string> };
    };
    expect(image.result.key).toBe(`stock-images/${event.name}/stock/banner.JPG`);
    expect(image.result.fields.key).toBe(image.result.key);
    const thumb = (await ask({ is_thumbnail: true, directory: '' })).body as {
      result: { key: string };
    };
    expect(thumb.result.key).toBe(`stock-images/${event.name}/thumbnails/banner.JPG`);

    const refusals: [Record<string, unknown>, number, string, string?][] = [
      [{ key_type: 'private', key_value: event.private_api_key }, 403, 'forbidden'],
      [{ key_value: event.public_api_key }, 401, 'invalid_key'],
      [{ event_name: 'ZZZZ' }, 401, 'invalid_key'],
      [{ file_name: 'banner.exe' }, 400, 'unsupported_picture_format', 'file_name'],
      [{ file_name: 'mp4' }, 400, 'unsupported_picture_format', 'file_name'],
      [{ file_name: 'a/b.jpg' }, 400, 'file_name_invalid', 'file_name'],
      [{ file_name: 'a:b.jpg' }, 400, 'file_name_invalid', 'file_name'],
      [{ directory: '../other' }, 400, 'file_name_invalid', 'directory'],
    ];
    for (const [body, status, key, field] of refusals) {
      const response = await ask(body);
      expect(errorOf(response), JSON.stringify(body)).toMatchObject({
        status,
        message_key: key,
        ...(field ? { field } : {}),
      });
    }
  });

  it('answers ok to cache invalidation after checking the paths', async () => {
    expect(await t.ok(endpoints.shareBucketInvalidateCache, {}, as(w.ownerA))).toEqual({});
    expect(
      await t.ok(endpoints.shareBucketInvalidateCache, { paths: ['data/ABCD.json'] }, as(w.ownerA)),
    ).toEqual({});
    const bad = await t.call(
      endpoints.shareBucketInvalidateCache,
      { paths: ['ok.png', '../x'] },
      as(w.ownerA),
    );
    expect(errorOf(bad)).toMatchObject({
      status: 400,
      message_key: 'file_name_invalid',
      field: 'paths.1',
    });
  });
});
