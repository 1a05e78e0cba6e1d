import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDisjoint } from '../../src/container.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
});
afterAll(async () => {
  await t.close();
});

describe('container composed from one wiring file per domain', () => {
  it('keeps the flat shape routes and tests use', () => {
    const { services, repositories } = t.app.container;
    expect(Object.keys(services).sort()).toEqual(
      [
        'albumMail',
        'albumDownloads',
        'attendees',
        'auth',
        'cardCheckout',
        'checkout',
        'eventFromAddress',
        'eventMail',
        'events',
        'faceData',
        'faceIndex',
        'faceSearch',
        'faceSelfies',
        'firstAdmin',
        'ignoredFaces',
        'imageProcesses',
        'kioskMedia',
        'leads',
        'mail',
        'mediaAccess',
        'miniAlbums',
        'notifications',
        'orderAdmin',
        'organisations',
        'outbox',
        'outboxAdmin',
        'passwordReset',
        'payments',
        'photoChanges',
        'photoDerivatives',
        'photoListing',
        'photoRetention',
        'photoStream',
        'photoUploads',
        'photoUrls',
        'photoVariants',
        'printing',
        'printStationsAdmin',
        'providerCheckouts',
        'robots',
        'shareBucket',
        'shares',
        'shopify',
        'sms',
        'squarePairing',
        'paymentConnections',
        'stockUploads',
        'storageMigration',
        'templates',
        'twoFactor',
        'unlocks',
        'uploadSweep',
        'users',
        'webapp',
        'webhookOut',
        'webhooks',
      ].sort(),
    );
    expect(Object.keys(repositories).sort()).toEqual(
      [
        'albums',
        'apiKeys',
        'attendeeUnlocks',
        'attendees',
        'events',
        'faces',
        'faceSelfies',
        'eventCredentials',
        'ignoredFaces',
        'imageProcesses',
        'leads',
        'notifications',
        'organisations',
        'outbox',
        'payments',
        'paymentConnections',
        'photos',
        'printJobs',
        'printRequests',
        'printStations',
        'printTemplates',
        'robots',
        'sessions',
        'throttle',
        'users',
        'webhookOut',
      ].sort(),
    );
  });

  it('refuses two domains that define the same name', () => {
    expect(() => assertDisjoint('services', [{ mail: 1 }, { sms: 2 }])).not.toThrow();
    expect(() => assertDisjoint('services', [{ mail: 1 }, { sms: 2, mail: 3 }])).toThrow(
      'container: two domains define services.mail',
    );
  });
});
