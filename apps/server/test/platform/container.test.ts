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
        'attendeeCards',
        'autoPrint',
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
        'ignoredFaces',
        'imageProcesses',
        'kioskDesk',
        'kioskMedia',
        'leads',
        'mail',
        'miniAlbums',
        'notifications',
        'orderAdmin',
        'organisations',
        'outbox',
        'outboxAdmin',
        'passCodes',
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
        'printDesk',
        'printSheets',
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
        'kioskMedia',
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
