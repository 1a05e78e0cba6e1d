import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { SmtpMailAdapter } from '../../src/repositories/messaging/mail/smtp.adapter.ts';
import { ProviderError } from '../../src/repositories/provider-error.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

type Peer = Awaited<ReturnType<typeof startSmtpPeer>>;

/** Jobs pg-boss holds for a queue and message, oldest first (seconds until each may start). */
const jobsFor = async (t: TestApp, name: string, outboxId: number) =>
  (
    await t.database.executeSql(
      `select extract(epoch from (start_after - now()))::float as wait
         from pgboss.job where name = $1 and (data->>'outboxId')::int = $2 order by created_on`,
      [name, outboxId],
    )
  ).rows.map((r) => Number(r.wait));

describe('mail through the one outbox (real SMTP)', () => {
  let smtp: Peer;
  let t: TestApp;
  /** What the peer answers a recipient: null accepts. */
  let refusal: { code: number; text: string } | null = null;

  beforeAll(async () => {
    smtp = await startSmtpPeer({ refuse: () => refusal });
    // No worker: the test runs each delivery attempt itself, as the mail.deliver job would.
    t = await createTestApp({ SMTP_URL: smtp.url }, { worker: false });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    refusal = null;
    smtp.messages.length = 0;
  });

  const outbox = () => t.app.container.services.outbox;
  const row = async (id: number) => t.app.container.repositories.outbox.findById(id);
  const queueMail = async (to: string) => {
    await t.app.container.services.mail.send({
      kind: 'test_mail',
      to,
      subject: 'Hello',
      text: 'Plain body',
      html: '<p>Html body</p>',
    });
    const [stored] = await t.app.container.repositories.outbox.list(1, 'mail');
    expect(stored?.recipient).toBe(to);
    return stored!;
  };

  it('stores the message queued with a mail.deliver job, sends it once and records the provider id', async () => {
    const stored = await queueMail('ann@example.com');
    expect(stored).toMatchObject({
      channel: 'mail',
      status: 'queued',
      attempts: 0,
      sender: null,
      content: { subject: 'Hello', text: 'Plain body', html: '<p>Html body</p>' },
      providerMessageId: null,
    });
    expect(await jobsFor(t, 'mail.deliver', stored.id)).toHaveLength(1);

    await outbox().deliver(stored.id);
    expect(smtp.messages).toHaveLength(1);
    const [received] = smtp.messages;
    expect(received?.to).toEqual(['ann@example.com']);
    expect(received?.text).toMatch(new RegExp(`^X-Flashbulb-Outbox-Id: ${stored.id}\r$`, 'im'));
    const sent = await row(stored.id);
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 1,
      provider: 'smtp',
      lastError: null,
      nextAttemptAt: null,
      sentAt: t.clock.now(),
    });
    expect(received?.text).toContain(`Message-ID: ${sent!.providerMessageId}`);

    // The job may run again (pg-boss retries, a duplicate): nothing more is sent.
    await outbox().deliver(stored.id);
    await outbox().deliver(stored.id);
    expect(smtp.messages).toHaveLength(1);
    expect((await row(stored.id))?.attempts).toBe(1);
  });

  it('lets one of two simultaneous deliveries through', async () => {
    const stored = await queueMail('both@example.com');
    await Promise.all([outbox().deliver(stored.id), outbox().deliver(stored.id)]);
    expect(smtp.messages).toHaveLength(1);
    expect(await row(stored.id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('retries an SMTP 4xx with backoff, then sends', async () => {
    const stored = await queueMail('later@example.com');
    refusal = { code: 451, text: 'Mailbox busy, try later' };
    await outbox().deliver(stored.id);
    expect(smtp.messages).toHaveLength(0);
    const first = await row(stored.id);
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    expect(first?.lastError).toContain('451');
    expect(first?.nextAttemptAt).toEqual(new Date(t.clock.now().getTime() + 30_000));
    // The next attempt is a job due in 30 s (besides the first, already due).
    const waits = await jobsFor(t, 'mail.deliver', stored.id);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(20);
    expect(waits[1]).toBeLessThanOrEqual(31);

    await outbox().deliver(stored.id);
    const second = await row(stored.id);
    expect(second).toMatchObject({ status: 'queued', attempts: 2 });
    expect(second?.nextAttemptAt).toEqual(new Date(t.clock.now().getTime() + 120_000));

    refusal = null;
    await outbox().deliver(stored.id);
    expect(smtp.messages.map((m) => m.to)).toEqual([['later@example.com']]);
    expect(await row(stored.id)).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
  });

  it('fails an SMTP 5xx at once with the reason, without a retry', async () => {
    const stored = await queueMail('nobody@example.com');
    refusal = { code: 550, text: 'No such user here' };
    await outbox().deliver(stored.id);
    const failed = await row(stored.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    expect(failed?.lastError).toMatch(/^SMTP 550.*No such user here/);
    expect(await jobsFor(t, 'mail.deliver', stored.id)).toHaveLength(1);

    refusal = null;
    await outbox().deliver(stored.id);
    expect(smtp.messages).toHaveLength(0);
    expect((await row(stored.id))?.status).toBe('failed');
  });

  it('gives up after the last attempt', async () => {
    const stored = await queueMail('never@example.com');
    refusal = { code: 421, text: 'Service not available' };
    expect(outbox().maxAttempts).toBe(6);
    for (let attempt = 1; attempt <= 6; attempt += 1) await outbox().deliver(stored.id);
    const last = await row(stored.id);
    expect(last).toMatchObject({ status: 'failed', attempts: 6, nextAttemptAt: null });
    expect(last?.lastError).toContain('421');
    await outbox().deliver(stored.id);
    expect((await row(stored.id))?.attempts).toBe(6);
    expect(smtp.messages).toHaveLength(0);
  });

  it('takes over an attempt whose worker died once its lease ran out, not before', async () => {
    const stored = await queueMail('lease@example.com');
    const repository = t.app.container.repositories.outbox;
    // A worker claimed it and died before it could send or record anything.
    expect(await repository.claim(stored.id, 'smtp', t.clock.now(), 5 * 60_000)).not.toBeNull();
    await outbox().deliver(stored.id);
    expect(smtp.messages).toHaveLength(0);
    expect(await repository.due(t.clock.now(), 100)).not.toContainEqual({
      id: stored.id,
      channel: 'mail',
    });

    t.clock.advance(5 * 60_000 + 1);
    expect(await repository.due(t.clock.now(), 100)).toContainEqual({
      id: stored.id,
      channel: 'mail',
    });
    await outbox().deliver(stored.id);
    expect(smtp.messages).toHaveLength(1);
    expect(await row(stored.id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('enqueues again, when a worker starts, a queued message whose job was lost', async () => {
    const lost = await t.app.container.repositories.outbox.add(
      {
        channel: 'mail',
        kind: 'test_mail',
        eventId: null,
        recipient: 'lost@example.com',
        sender: null,
        content: { subject: 'Lost', text: 'Lost', html: null },
      },
      'queued',
    );
    expect(await jobsFor(t, 'mail.deliver', lost.id)).toHaveLength(0);
    await outbox().resumeDue();
    expect(await jobsFor(t, 'mail.deliver', lost.id)).toHaveLength(1);
  });

  it('translates SMTP answers into permanent and retryable provider errors', async () => {
    const closed = new SmtpMailAdapter('smtp://127.0.0.1:9', 'x@example.com');
    const unreachable = await closed
      .send({ outboxId: 1, to: 'a@example.com', from: null, subject: 's', text: 't', html: null })
      .catch((e: unknown) => e);
    closed.close();
    expect(unreachable).toBeInstanceOf(ProviderError);
    expect(unreachable).toMatchObject({ provider: 'smtp', kind: 'retryable' });
  });
});

describe('the embedded default: no mail or SMS provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ FLASHBULB_MAIL_PROVIDER: 'outbox', SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps messages in the outbox, with no job and no attempt', async () => {
    await t.app.container.services.mail.send({
      kind: 'test_mail',
      to: 'held@example.com',
      subject: 'Held',
      text: 'Held',
    });
    await t.app.container.services.sms.send({
      kind: 'test_sms',
      eventId: null,
      to: '2125550199',
      body: 'Held',
    });
    const [sms, mail] = await t.app.container.repositories.outbox.list(2);
    expect(mail).toMatchObject({ channel: 'mail', status: 'outbox', attempts: 0 });
    expect(sms).toMatchObject({ channel: 'sms', status: 'outbox', attempts: 0 });
    expect(await jobsFor(t, 'mail.deliver', mail!.id)).toHaveLength(0);
    expect(await jobsFor(t, 'sms.deliver', sms!.id)).toHaveLength(0);
    await t.app.container.services.outbox.deliver(mail!.id);
    expect(await t.app.container.repositories.outbox.findById(mail!.id)).toMatchObject({
      status: 'outbox',
      attempts: 0,
    });
  });

  it('answers 404 for webhooks of providers that are not configured', async () => {
    for (const provider of ['twilio', 'stripe']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/${provider}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'MessageSid=SM1&MessageStatus=delivered',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ status: 'nok', error: { message_key: 'not_found' } });
    }
    const { rows } = await t.database.executeSql('select count(*)::int as n from webhook_events');
    expect(rows[0]?.n).toBe(0);
  });

  it('chooses adapters from configuration, the embedded default first', () => {
    expect(loadConfig({}).providers).toEqual({
      mail: { kind: 'outbox' },
      sms: { kind: 'outbox' },
      payments: { kind: 'none' },
    });
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example:25' }).providers.mail).toEqual({
      kind: 'smtp',
      url: 'smtp://mail.example:25',
    });
    expect(() => loadConfig({ FLASHBULB_MAIL_PROVIDER: 'smtp' })).toThrow(
      /FLASHBULB_MAIL_PROVIDER=smtp needs SMTP_URL/,
    );
    expect(() => loadConfig({ FLASHBULB_SMS_PROVIDER: 'carrier-pigeon' })).toThrow(
      /FLASHBULB_SMS_PROVIDER/,
    );
  });
});
