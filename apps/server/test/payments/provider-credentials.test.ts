import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createEventWorld, type EventWorld } from '../helpers/events.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const STRIPE = 'sk_live_credential_for_adapters_81';

describe('provider credentials from an event’s secure fields', () => {
  let t: TestApp;
  let w: EventWorld;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      { LOG_LEVEL: 'debug' },
      { logStream: { write: (line: string) => void logLines.push(line) } },
    );
    w = await createEventWorld(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the set fields decrypted, nothing for unset ones or unknown events, and logs none', async () => {
    const event = await createEvent(t, w.adminA, { stripe_secret_key: STRIPE });
    const credentials = t.app.container.repositories.eventCredentials;
    expect(
      await credentials.read(event.id, ['stripe_secret_key', 'monobank_token', 'shopify_api_key']),
    ).toEqual({ stripe_secret_key: STRIPE });
    expect(await credentials.read(event.id + 1000, ['stripe_secret_key'])).toEqual({});

    const { rows } = await t.database.executeSql('select secure_fields from events where id = $1', [
      event.id,
    ]);
    expect(JSON.stringify(rows)).not.toContain(STRIPE);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(STRIPE))).toEqual([]);
  });
});
