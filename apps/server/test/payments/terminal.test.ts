import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTerminalSim, type TerminalSim } from '../../src/cli/terminal-sim.ts';
import { paymentsReconcileJob } from '../../src/jobs/payments-reconcile.job.ts';
import {
  STATUS_CHECK_FAILED,
  TerminalAdapter,
  TerminalError,
} from '../../src/repositories/payments/terminal.adapter.ts';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The payment terminal (albums spec §7.3, §3, §8) against the terminal simulator
 * (`npm run cli -- terminal-sim`, a real HTTP server): the kiosk starts a sale (`/fcc/pay` with the
 * §3 body), polls it (`/fcc/check-status`, reply read from `data`), cancels it (`/fcc/cancel`); the
 * terminal's word moves the same payment state machine; failures are the §3 error object and the
 * §8 texts; a sale the kiosk gave up on is reconciled by the job.
 */

let t: TestApp;
let sim: TerminalSim;
let admin: { authorization: string };
let event: FlashbulbEvent;
let organisationId: number;
const logLines: string[] = [];

// The organiser's kiosk: the private key with the event's display token.
const kiosk = () => ({
  key_type: 'private' as const,
  key_value: event.private_api_key,
  display: event.display_token,
});

const guest = async (photos = 1) => {
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;
  for (let i = 0; i < photos; i += 1) await insertReadyPhoto(t, event, uid);
  return uid;
};

const originals = async (uid: string) =>
  (
    await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
      page_number: 1,
    })
  ).photos.map((p) => p.urls.original);

const paymentRow = (publicId: string) =>
  t.app.container.repositories.payments.paymentByPublicId(publicId);

const pay = (uid: string, extra: { client_request_id?: string } = {}) =>
  t.ok(endpoints.terminalPay, { ...kiosk(), attendee_uid: uid, pricing_button_index: 0, ...extra });
const check = (paymentId: string) =>
  t.ok(endpoints.terminalCheckStatus, { ...kiosk(), payment_id: paymentId });

beforeAll(async () => {
  sim = await startTerminalSim();
  t = await createTestApp(
    {
      FLASHBULB_PAYMENT_TERMINAL_URL: sim.url,
      FLASHBULB_PAYMENT_TERMINAL_STORE_ID: 'store-12',
      FLASHBULB_PAYMENT_TERMINAL_ID: 'term-3',
      FLASHBULB_PAYMENT_TERMINAL_LANE_ID: 'lane-1',
      FLASHBULB_PAYMENTS_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'debug',
    },
    { worker: false, logStream: { write: (line: string) => void logLines.push(line) } },
  );
  const world = await createEventWorld(t);
  organisationId = world.orgA.id;
  admin = await apiKeyAuth(t, world.adminA);
  event = await createEvent(t, world.adminA, {
    full_name: 'Terminal Gala',
    is_free: 0,
    opts: {
      description: 'Paid',
      unitPrice: 3.5,
      pricingButtons: [
        {
          buttonText: 'Whole album',
          priceFormula: '{Final_Amount} + 1',
          digitals: true,
          prints: false,
          partialUnlockTags: false,
          printsPool: '',
        },
      ],
    },
  });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('the payment terminal', () => {
  it('sends the §3 body to /fcc/pay and unlocks exactly once when the terminal approves', async () => {
    sim.setOutcome('approve');
    const uid = await guest(2);
    const started = await pay(uid, { client_request_id: 'kiosk-1-sale-1' });
    // 2 photos × $3.50 + $1 = $8.00
    expect(started).toMatchObject({ amount: 800, currency: 'USD', status: 'pending' });
    // A kiosk is offered the terminal where one is configured (the kiosk's checkout shows it).
    const priced = await t.ok(endpoints.pricingButtonList, { ...kiosk(), attendee_uid: uid });
    expect(priced.methods).toContain('terminal');
    const sent = sim.requests.filter((r) => r.path === '/fcc/pay').at(-1)!.body;
    expect(sent).toEqual({
      amount: '8.00',
      taxAmount: '0.00',
      storeId: 'store-12',
      terminalId: 'term-3',
      laneId: 'lane-1',
      invoiceNumber: started.payment_id,
      merchantReferenceCode: uid,
      clientEnvironment: 'flashbulb-kiosk',
      currency: 'USD',
      items: [{ sku: uid, description: 'Whole album', quantity: 1, unitPrice: '8.00' }],
    });
    expect(sim.sales.get(started.request_id)).toBeDefined();
    // The kiosk retries the same sale (its request timed out): the same payment, no second sale.
    const sales = sim.sales.size;
    const retried = await pay(uid, { client_request_id: 'kiosk-1-sale-1' });
    expect(retried).toMatchObject({
      payment_id: started.payment_id,
      request_id: started.request_id,
    });
    expect(sim.sales.size).toBe(sales);
    expect((await originals(uid))[0]).toBeNull();

    expect(await check(started.payment_id)).toEqual({
      payment_id: started.payment_id,
      status: 'paid',
      error_message: null,
    });
    expect((await originals(uid))[0]).toContain('/original?');
    const unlocks = await t.database.executeSql('select count(*) as n from attendee_unlocks', []);
    // Asked again: nothing new.
    expect((await check(started.payment_id)).status).toBe('paid');
    const after = await t.database.executeSql('select count(*) as n from attendee_unlocks', []);
    expect(after.rows[0]!.n).toEqual(unlocks.rows[0]!.n);
  });

  it.each([
    // 2 photos × 3.50 + 1 = 8.00 in the formula's cents: €8.00; whole yen for JPY.
    ['EUR', 800, '8.00'],
    ['JPY', 8, '8'],
  ])(
    'sells in the organisation’s currency (%s): the terminal gets the code and its decimals',
    async (currency, minor, decimal) => {
      sim.setOutcome('approve');
      const setCurrency = (code: string) =>
        t.database.executeSql('update organisations set currency = $1 where id = $2', [
          code,
          organisationId,
        ]);
      await setCurrency(currency);
      try {
        const uid = await guest(2);
        const started = await pay(uid);
        expect(started).toMatchObject({ amount: minor, currency, status: 'pending' });
        const sent = sim.requests.filter((r) => r.path === '/fcc/pay').at(-1)!.body;
        expect(sent).toMatchObject({
          amount: decimal,
          taxAmount: currency === 'JPY' ? '0' : '0.00',
          currency,
          items: [{ sku: uid, unitPrice: decimal }],
        });
        expect((await check(started.payment_id)).status).toBe('paid');
        expect((await originals(uid))[0]).toContain('/original?');
      } finally {
        await setCurrency('USD');
      }
    },
  );

  it('a declined card fails the payment with the §8 text and unlocks nothing', async () => {
    sim.setOutcome('decline');
    const uid = await guest(1);
    const started = await pay(uid);
    expect(await check(started.payment_id)).toEqual({
      payment_id: started.payment_id,
      status: 'failed',
      error_message: 'Error code - 51 Insufficient funds',
    });
    expect((await originals(uid))[0]).toBeNull();
  });

  it('a sale the kiosk gave up on (card never came in time) is paid later through reconciliation, once', async () => {
    sim.setOutcome('timeout');
    const uid = await guest(1);
    const started = await pay(uid);
    expect((await check(started.payment_id)).status).toBe('pending');
    // The buyer's card is taken after the kiosk stopped polling.
    const resolved = await fetch(`${sim.url}/sim/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: started.request_id, outcome: 'approve' }),
    });
    expect(resolved.status).toBe(200);
    const reconcile = t.app.container.services.providerCheckouts;
    t.clock.advance(3 * 60_000);
    const checks = () =>
      sim.requests.filter(
        (r) => r.path === '/fcc/check-status' && r.body.requestId === started.request_id,
      ).length;
    const before = checks();
    await paymentsReconcileJob.run({}, { providerCheckouts: reconcile });
    expect(checks()).toBe(before + 1);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect((await originals(uid))[0]).toContain('/original?');
    await reconcile.reconcilePending();
    expect(checks()).toBe(before + 1); // paid: not asked again
  });

  it('cancel cancels a waiting sale at the terminal; a sale approved meanwhile stays paid', async () => {
    sim.setOutcome('timeout');
    const uid = await guest(1);
    const waiting = await pay(uid);
    const cancelled = await t.ok(endpoints.terminalCancel, {
      ...kiosk(),
      payment_id: waiting.payment_id,
    });
    expect(cancelled.status).toBe('cancelled');
    expect(sim.sales.get(waiting.request_id)?.status).toBe('CANCELLED');

    const other = await pay(uid);
    await fetch(`${sim.url}/sim/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: other.request_id, outcome: 'approve' }),
    });
    const late = await t.ok(endpoints.terminalCancel, { ...kiosk(), payment_id: other.payment_id });
    expect(late.status).toBe('paid');
    expect((await originals(uid))[0]).toContain('/original?');
  });

  it('a terminal that cannot be asked gives “Status check failed” and changes nothing', async () => {
    sim.setOutcome('timeout');
    const uid = await guest(1);
    const started = await pay(uid);
    // The terminal forgets the sale (restarted): its 404 JSON error is the §3 object, logged.
    sim.sales.delete(started.request_id);
    expect(await check(started.payment_id)).toEqual({
      payment_id: started.payment_id,
      status: 'pending',
      error_message: STATUS_CHECK_FAILED,
    });
    const logged = logLines.find((l) => l.includes('"terminal_error"') && l.includes('NOT_FOUND'));
    expect((JSON.parse(logged!) as { terminal_error: unknown }).terminal_error).toEqual({
      type: 'global',
      message_key: 'Internal Error',
      message: 'Unknown requestId',
      code: 'NOT_FOUND',
      status: 404,
      error: null,
    });
    expect((await paymentRow(started.payment_id))?.status).toBe('pending');
  });

  it('reads the §3 error object from a JSON error body, and an empty one otherwise', async () => {
    const refused = new TerminalAdapter({
      url: sim.url,
      storeId: '',
      terminalId: '',
      laneId: '',
      timeoutMs: 2000,
    });
    const error = await refused
      .createCheckout(
        {
          paymentId: 'pay_1',
          total: { amount: 0, currency: 'USD' },
          tax: { amount: 0, currency: 'USD' },
          items: [],
          reference: 'A1',
          returnUrl: null,
        },
        {},
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TerminalError);
    expect((error as TerminalError).details).toEqual({
      type: 'global',
      message_key: 'Internal Error',
      message: 'amount must be a positive decimal',
      code: 'INVALID_AMOUNT',
      status: 400,
      error: null,
    });
    const nobody = new TerminalAdapter({
      url: 'http://127.0.0.1:9', // discard port: nothing listens
      storeId: '',
      terminalId: '',
      laneId: '',
      timeoutMs: 2000,
    });
    const down = await nobody.checkStatus('x').catch((e: unknown) => e);
    expect(down).toBeInstanceOf(TerminalError);
    expect((down as TerminalError).details).toMatchObject({
      type: 'global',
      message_key: 'Internal Error',
      message: '',
      code: '',
      status: 0,
    });
    expect((down as TerminalError).permanent).toBe(false);
  });

  it('refuses a payment of another provider', async () => {
    const uid = await guest(1);
    const qr = await t.ok(endpoints.createQrPayment, {
      ...kiosk(),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    const reply = await t.call(endpoints.terminalCheckStatus, {
      ...kiosk(),
      payment_id: qr.payment_id,
    });
    expect(errorOf(reply)).toMatchObject({ status: 404, message_key: 'not_found' });
  });
});

describe('npm run cli -- terminal-sim', () => {
  it('serves the terminal API on the given port', async () => {
    const root = path.resolve(import.meta.dirname, '../../../..');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/main.ts', 'terminal-sim', '--port', '0'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const adapter = new TerminalAdapter({
        url,
        storeId: 's',
        terminalId: 't',
        laneId: 'l',
        timeoutMs: 5000,
      });
      const sale = await adapter.createCheckout(
        {
          paymentId: 'pay_cli',
          total: { amount: 1250, currency: 'USD' },
          tax: { amount: 0, currency: 'USD' },
          items: [],
          reference: 'A1',
          returnUrl: null,
        },
        {},
      );
      expect(await adapter.checkStatus(sale.providerPaymentId)).toMatchObject({
        status: 'APPROVED',
        ErrorCode: '0',
      });
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});
