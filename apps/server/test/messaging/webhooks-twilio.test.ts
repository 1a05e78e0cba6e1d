import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twilioSignature } from '../../src/repositories/messaging/sms/twilio.adapter.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  startTwilioDouble,
  TWILIO_SID,
  TWILIO_TOKEN,
  type TwilioDouble,
} from '../helpers/twilio-double.ts';

const PUBLIC_URL = 'https://photos.example';

/**
 * Twilio's documented signature, computed here independently of the adapter: HMAC-SHA1 keyed by
 * the auth token over the full URL followed by each POST parameter, sorted by name, as name+value;
 * base64.
 */
const sign = (url: string, params: Record<string, string>, token = TWILIO_TOKEN): string =>
  createHmac('sha1', token)
    .update(
      Object.keys(params)
        .sort()
        .reduce((text, name) => text + name + params[name], url),
    )
    .digest('base64');

describe('the Twilio signature', () => {
  it('matches the example in Twilio’s webhook security docs', () => {
    const params: [string, string][] = [
      ['CallSid', 'CA1234567890ABCDE'],
      ['Caller', '+12349013030'],
      ['Digits', '1234'],
      ['From', '+12349013030'],
      ['To', '+18005551212'],
    ];
    expect(
      twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params.reverse()),
    ).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });
});

describe('POST /api/webhooks/twilio: SMS status callbacks', () => {
  let twilio: TwilioDouble;
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    twilio = await startTwilioDouble();
    t = await createTestApp(
      {
        FLASHBULB_SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: TWILIO_SID,
        TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
        TWILIO_FROM: '+15005550006',
        TWILIO_API_BASE: twilio.url,
        FLASHBULB_PUBLIC_URL: PUBLIC_URL,
        LOG_LEVEL: 'info',
      },
      { logStream: { write: (line: string) => void logLines.push(line) } },
    );
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  const outboxRow = async (id: number) => t.app.container.repositories.outbox.findById(id);
  const webhookEvents = async () =>
    (
      await t.database.executeSql(
        'select provider, provider_event_id, kind from webhook_events order by id',
      )
    ).rows;

  /** An SMS handed to Twilio (the double), as the sms.deliver job does it. */
  const sentSms = async (body: string) => {
    await t.app.container.services.sms.send({
      kind: 'test_sms',
      eventId: null,
      to: '2125550199',
      body,
    });
    const [queued] = await t.app.container.repositories.outbox.list(1, 'sms');
    await expect
      .poll(async () => (await outboxRow(queued!.id))?.status, { timeout: 15_000 })
      .toBe('sent');
    const sent = (await outboxRow(queued!.id))!;
    const request = twilio.received.find((r) => r.form.Body === body);
    expect(request?.form.StatusCallback).toBe(
      `${PUBLIC_URL}/api/webhooks/twilio?outboxId=${sent.id}`,
    );
    expect(sent.providerMessageId).toMatch(/^SM\d{32}$/);
    return sent;
  };

  const callback = (
    outboxId: number,
    params: Record<string, string>,
    signature: string | null = sign(
      `${PUBLIC_URL}/api/webhooks/twilio?outboxId=${outboxId}`,
      params,
    ),
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/webhooks/twilio?outboxId=${outboxId}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature === null ? {} : { 'x-twilio-signature': signature }),
      },
      payload: new URLSearchParams(params).toString(),
    });

  const statusParams = (sid: string, status: string, extra: Record<string, string> = {}) => ({
    AccountSid: TWILIO_SID,
    ApiVersion: '2010-04-01',
    From: '+15005550006',
    MessageSid: sid,
    MessageStatus: status,
    SmsSid: sid,
    SmsStatus: status,
    To: '+12125550199',
    ...extra,
  });

  it('moves a sent SMS to delivered once; a replay is recorded once and changes nothing', async () => {
    const sms = await sentSms('Delivered once');
    const sid = sms.providerMessageId!;
    const before = (await webhookEvents()).length;

    const first = await callback(sms.id, statusParams(sid, 'delivered'));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'ok', result: { duplicate: false } });
    expect(await outboxRow(sms.id)).toMatchObject({ status: 'delivered', lastError: null });
    expect((await webhookEvents()).slice(before)).toEqual([
      { provider: 'twilio', provider_event_id: `${sid}:delivered`, kind: 'message.status' },
    ]);

    // Were the replay applied again, it would move the row back to delivered.
    await t.database.executeSql("update outbox set status = 'sent' where id = $1", [sms.id]);
    const replay = await callback(sms.id, statusParams(sid, 'delivered'));
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ status: 'ok', result: { duplicate: true } });
    expect((await outboxRow(sms.id))?.status).toBe('sent');
    expect((await webhookEvents()).length).toBe(before + 1);
  });

  it('keeps the first final status: a later undelivered report is recorded but changes nothing', async () => {
    const sms = await sentSms('Final once');
    const sid = sms.providerMessageId!;
    expect((await callback(sms.id, statusParams(sid, 'delivered'))).statusCode).toBe(200);
    const late = await callback(sms.id, statusParams(sid, 'undelivered', { ErrorCode: '30005' }));
    expect(late.json()).toEqual({ status: 'ok', result: { duplicate: false } });
    expect(await outboxRow(sms.id)).toMatchObject({ status: 'delivered', lastError: null });
  });

  it('marks undelivered and failed reports with Twilio’s error code; intermediate ones change nothing', async () => {
    const lost = await sentSms('Undelivered');
    expect(
      (await callback(lost.id, statusParams(lost.providerMessageId!, 'sent'))).statusCode,
    ).toBe(200);
    expect((await outboxRow(lost.id))?.status).toBe('sent');
    await callback(
      lost.id,
      statusParams(lost.providerMessageId!, 'undelivered', { ErrorCode: '30003' }),
    );
    expect(await outboxRow(lost.id)).toMatchObject({
      status: 'undelivered',
      lastError: 'Twilio 30003',
    });

    const refused = await sentSms('Failed');
    await callback(
      refused.id,
      statusParams(refused.providerMessageId!, 'failed', { ErrorCode: '30008' }),
    );
    expect(await outboxRow(refused.id)).toMatchObject({
      status: 'failed',
      lastError: 'Twilio 30008',
    });
  });

  it('refuses a missing or wrong signature with 403, recording and changing nothing', async () => {
    const sms = await sentSms('Forged');
    const sid = sms.providerMessageId!;
    const url = `${PUBLIC_URL}/api/webhooks/twilio?outboxId=${sms.id}`;
    const before = await webhookEvents();
    const params = statusParams(sid, 'failed', { ErrorCode: '30008' });
    const forged = [
      await callback(sms.id, params, null),
      await callback(sms.id, params, sign(url, params, 'not-the-auth-token')),
      // Signed for another status than the one posted.
      await callback(sms.id, params, sign(url, statusParams(sid, 'delivered'))),
      // Signed for another message's URL.
      await callback(sms.id, params, sign(`${PUBLIC_URL}/api/webhooks/twilio?outboxId=1`, params)),
    ];
    for (const response of forged) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ status: 'nok', error: { message_key: 'forbidden' } });
    }
    // A correct signature over JSON instead of the form Twilio posts.
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/twilio?outboxId=${sms.id}`,
      headers: { 'content-type': 'application/json', 'x-twilio-signature': sign(url, params) },
      payload: JSON.stringify(params),
    });
    expect(json.statusCode).toBe(403);
    expect(await webhookEvents()).toEqual(before);
    expect(await outboxRow(sms.id)).toMatchObject({ status: 'sent', lastError: null });
  });

  it('answers 404 for an unknown provider and 413 for an oversized body', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/carrier-pigeon',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'MessageSid=SM1&MessageStatus=delivered',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 'nok', error: { message_key: 'not_found' } });
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/twilio',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `Body=${'x'.repeat(70 * 1024)}`,
    });
    expect(huge.statusCode).toBe(413);
  });

  it('never writes the auth token to the log', () => {
    expect(logLines.some((line) => line.includes('"webhook received"'))).toBe(true);
    expect(logLines.some((line) => line.includes('webhook refused'))).toBe(true);
    expect(logLines.filter((line) => line.includes(TWILIO_TOKEN))).toEqual([]);
  });
});

describe('a provider that quotes credentials back', () => {
  const WRONG = 'wrong-token-value-4711';
  let twilio: TwilioDouble;
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    twilio = await startTwilioDouble({ echoCredentials: true });
    t = await createTestApp(
      {
        FLASHBULB_SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: TWILIO_SID,
        TWILIO_AUTH_TOKEN: WRONG,
        TWILIO_FROM: '+15005550006',
        TWILIO_API_BASE: twilio.url,
        FLASHBULB_PUBLIC_URL: PUBLIC_URL,
        LOG_LEVEL: 'debug',
      },
      { logStream: { write: (line: string) => void logLines.push(line) } },
    );
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  it('fails the message with the reason, the secret scrubbed from what is stored, logged or answered', async () => {
    await t.app.container.services.sms.send({
      kind: 'test_sms',
      eventId: null,
      to: '2125550199',
      body: 'Hi',
    });
    const [queued] = await t.app.container.repositories.outbox.list(1, 'sms');
    await expect
      .poll(async () => (await t.app.container.repositories.outbox.findById(queued!.id))?.status, {
        timeout: 15_000,
      })
      .toBe('failed');
    const failed = await t.app.container.repositories.outbox.findById(queued!.id);
    expect(failed?.attempts).toBe(1);
    expect(failed?.lastError).toBe(
      `Twilio 20003: Authenticate: credentials ${TWILIO_SID}:[redacted] were refused`,
    );
    // The double really quoted it: the scrubbing is what kept it out.
    expect(twilio.received).toHaveLength(1);

    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/twilio',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' },
      payload: `MessageSid=SM1&MessageStatus=delivered&Token=${WRONG}`,
    });
    expect(webhook.statusCode).toBe(403);
    expect(webhook.body).not.toContain(WRONG);
    expect(logLines.some((line) => line.includes('"message failed"'))).toBe(true);
    expect(logLines.filter((line) => line.includes(WRONG))).toEqual([]);
  });
});
