import { endpoints } from '@flashbulb/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { ProviderError } from '../../src/repositories/provider-error.ts';
import type { OutgoingSms } from '../../src/repositories/messaging/sms/sms-provider.ts';
import {
  e164,
  TwilioSmsAdapter as TwilioSmsProvider,
  type TwilioSettings,
} from '../../src/repositories/messaging/sms/twilio.adapter.ts';
import { apiKeyAuth, createEvent, createEventWorld } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { startTwilioDouble, TWILIO_SID, TWILIO_TOKEN } from '../helpers/twilio-double.ts';

const SID = TWILIO_SID;
const TOKEN = TWILIO_TOKEN;

let twilio: Awaited<ReturnType<typeof startTwilioDouble>>;
beforeAll(async () => {
  twilio = await startTwilioDouble();
});
afterAll(async () => {
  await twilio.close();
});
afterEach(() => {
  twilio.reset();
});

const settings = (over: Partial<TwilioSettings> = {}): TwilioSettings => ({
  accountSid: SID,
  authToken: TOKEN,
  from: '+15005550006',
  messagingServiceSid: undefined,
  apiBase: twilio.url,
  statusCallbackUrl: undefined,
  ...over,
});
const row = (over: Partial<OutgoingSms> = {}): OutgoingSms => ({
  outboxId: 1,
  to: '2125550199',
  from: null,
  body: 'Hi Ann, your photos: https://photos.example/?mId=abc',
  ...over,
});

describe('Twilio SMS provider', () => {
  it('sends To in E.164, the body and the configured sender with basic auth', async () => {
    await new TwilioSmsProvider(settings()).send(row());
    expect(twilio.received).toHaveLength(1);
    const [request] = twilio.received;
    expect(request?.contentType).toBe('application/x-www-form-urlencoded');
    expect(request?.form).toEqual({
      To: '+12125550199',
      From: '+15005550006',
      Body: 'Hi Ann, your photos: https://photos.example/?mId=abc',
    });
  });

  it('uses the event’s sender when Twilio can, and a Messaging Service before anything else', async () => {
    await new TwilioSmsProvider(settings()).send(row({ from: 'GalaPhotos' }));
    await new TwilioSmsProvider(settings()).send(row({ from: 'Not a valid sender id!' }));
    await new TwilioSmsProvider(settings({ messagingServiceSid: 'MG123' })).send(
      row({ from: 'GalaPhotos' }),
    );
    expect(twilio.received.map((r) => [r.form.From, r.form.MessagingServiceSid])).toEqual([
      ['GalaPhotos', undefined],
      ['+15005550006', undefined],
      [undefined, 'MG123'],
    ]);
  });

  it('reads US numbers with or without the country code', () => {
    expect(e164('2125550199')).toBe('+12125550199');
    expect(e164('12125550199')).toBe('+12125550199');
    expect(e164('(212) 555-0199')).toBe('+12125550199');
  });

  it('treats a 4xx refusal as permanent and a 429 or 5xx as worth retrying', async () => {
    twilio.answer(() => ({
      status: 400,
      body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 },
    }));
    const refused = await new TwilioSmsProvider(settings()).send(row()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ kind: 'permanent', provider: 'twilio', code: '21211' });
    expect((refused as Error).message).toContain('21211');

    twilio.answer(() => ({ status: 429, body: { code: 20429, message: 'Too Many Requests' } }));
    const busy = await new TwilioSmsProvider(settings()).send(row()).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ProviderError);
    expect(busy).toMatchObject({ kind: 'retryable', code: '20429' });

    twilio.answer(() => ({ status: 503, body: { code: 20500, message: 'Service unavailable' } }));
    const down = await new TwilioSmsProvider(settings()).send(row()).catch((e: unknown) => e);
    expect(down).toMatchObject({ kind: 'retryable', code: '20500' });
  });

  it('never puts the auth token in an error', async () => {
    const wrong = await new TwilioSmsProvider(settings({ authToken: 'wrong-token-value' }))
      .send(row())
      .catch((e: unknown) => e as Error);
    expect(wrong).toMatchObject({ kind: 'permanent', code: '20003' });
    expect((wrong as Error).message).not.toContain('wrong-token-value');
  });

  it('refuses a half configuration at start', () => {
    expect(() => loadConfig({ FLASHBULB_SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID })).toThrow(
      /TWILIO_AUTH_TOKEN.*TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID/,
    );
    expect(loadConfig({}).providers.sms).toEqual({ kind: 'outbox' });
  });
});

describe('SMS leave the outbox through Twilio', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  const sendMiniAlbumSms = async () => {
    t = await createTestApp({
      FLASHBULB_SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_BASE: twilio.url,
    });
    const world = await createEventWorld(t);
    const admin = await apiKeyAuth(t, world.adminA);
    const robot = await t.ok(
      endpoints.createRobot,
      { organisation_id: world.orgA.id, name: 'Cam' },
      admin,
    );
    const event = await createEvent(t, world.adminA, {
      full_name: 'Gala',
      robot_id_array: [robot.id],
      is_sms_enabled: 1,
      sms_body_template: 'Hi {user_name}, your photos: {image_url}',
    });
    const uploaded = await uploadPhoto(
      t,
      { key_type: 'robot', key_value: robot.api_key },
      event.name,
      await makeJpeg({ seed: 7 }),
    );
    const photo = await waitForReady(t, admin.authorization, event.id, uploaded.id);
    const sent = await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: event.public_api_key,
      photo_uid_array: [photo.uid],
      receiver_full_name: 'Ann',
      sms_number: '(212) 555-0199',
    });
    return sent.url;
  };

  const outboxRow = async () => {
    const [first] = await t.app.container.repositories.outbox.list(1, 'sms');
    return first;
  };

  it('delivers the mini-album SMS and marks it sent', async () => {
    const url = await sendMiniAlbumSms();
    await expect.poll(() => twilio.received.length, { timeout: 20_000 }).toBe(1);
    expect(twilio.received[0]?.form).toMatchObject({
      To: '+12125550199',
      Body: `Hi Ann, your photos: ${url}`,
    });
    await expect.poll(async () => (await outboxRow())?.status, { timeout: 10_000 }).toBe('sent');
  });

  it('marks a refused number failed after one attempt', async () => {
    twilio.answer(() => ({
      status: 400,
      body: { code: 21614, message: "'To' number is not a valid mobile number", status: 400 },
    }));
    await sendMiniAlbumSms();
    await expect.poll(async () => (await outboxRow())?.status, { timeout: 20_000 }).toBe('failed');
    const failed = await outboxRow();
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastError).toContain('21614');
    expect(twilio.received).toHaveLength(1);
  });
});
