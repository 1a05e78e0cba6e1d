import { endpoints, type Endpoint, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEvent,
  createEventWorld,
  errorOf,
  readEvent,
  type EventWorld,
} from '../helpers/events.ts';
import { createAndSignInUser, Role, type SignedIn } from '../helpers/identity.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let w: EventWorld;
let event: FlashbulbEvent;
let secondOwnerA: SignedIn;
let robotA: { id: number };
let templateA: { id: number };
let faceA: { id: number };

const as = (user: { authorization: string }) => ({ authorization: user.authorization });

beforeAll(async () => {
  t = await createTestApp();
  w = await createEventWorld(t);
  secondOwnerA = await createAndSignInUser(
    t,
    w.superUser,
    'owner-a2@example.com',
    Role.EVENT_OWNER,
    w.orgA.id,
  );
  robotA = await t.ok(
    endpoints.createRobot,
    { organisation_id: w.orgA.id, name: 'Booth A' },
    as(w.adminA),
  );
  templateA = await t.app.container.repositories.printTemplates.create({
    name: 'A private 4x6',
    organisationId: w.orgA.id,
    placeholderCounts: 1,
  });
  event = await createEvent(t, w.ownerA, {
    full_name: 'Alpha secret gala',
    robot_id_array: [robotA.id],
    ppt_id_array: [templateA.id],
    stripe_secret_key: 'sk_alpha_secret',
    secret_code_list: 'Ann_Lee_AB12',
  });
  faceA = await t.ok(
    endpoints.createIgnoredFace,
    { event_id: event.id, full_path: 'faces/alpha-staff.jpg' },
    as(w.ownerA),
  );
});
afterAll(async () => {
  await t.close();
});

/** Nothing of organisation A may appear in a refusal. */
const expectNoLeak = (body: unknown) => {
  const text = JSON.stringify(body);
  for (const secret of [
    'Alpha secret gala',
    event.owner_api_key,
    event.private_api_key,
    event.public_api_key,
    'sk_alpha_secret',
    'Ann_Lee_AB12',
    'Booth A',
    'A private 4x6',
    'alpha-staff',
  ]) {
    expect(text).not.toContain(secret);
  }
};

const eventCalls = (): [string, Endpoint, Record<string, unknown>][] => [
  [
    'update',
    endpoints.updateEvent,
    { id: event.id, event_last_updated_date: event.updated_date, full_name: 'Hijacked' },
  ],
  ['delete', endpoints.deleteEvent, { event_id: event.id }],
  ['full data', endpoints.eventFullData, { event_name: event.name }],
  ['secure props', endpoints.secureProps, { event_name: event.name }],
  ['auto-print processes', endpoints.autoPrintProcesses, { event_id: event.id }],
  ['stock images', endpoints.stockImageList, { event_id: event.id }],
  [
    'ignore face',
    endpoints.createIgnoredFace,
    { event_id: event.id, full_path: 'faces/intruder.jpg' },
  ],
  ['ignored faces', endpoints.listIgnoredFaces, { event_id: event.id }],
  ['unignore faces', endpoints.deleteIgnoredFaces, { event_id: event.id, ids: [faceA.id] }],
];

describe('another organisation’s users (and other owners) see no event', () => {
  it('answers 404 event_not_found to every event call, leaks nothing and changes nothing', async () => {
    const users = { adminB: w.adminB, ownerB: w.ownerB, secondOwnerA };
    for (const [who, user] of Object.entries(users)) {
      for (const [name, endpoint, body] of eventCalls()) {
        const response = await t.call(endpoint, body, as(user));
        expect(errorOf(response), `${who} ${name}`).toMatchObject({
          status: 404,
          message_key: 'event_not_found',
        });
        expectNoLeak(response.body);
      }
      const list = await t.ok(endpoints.eventBasicList, {}, as(user));
      expect(list.events.map((e) => e.id)).not.toContain(event.id);
      const byKey = await t.ok(
        endpoints.eventBasicList,
        { private_api_key: event.private_api_key },
        as(user),
      );
      expect(byKey.events).toEqual([]);
    }
    expect(await readEvent(t, w.superUser, event.name)).toEqual(event);
    const faces = await t.ok(endpoints.listIgnoredFaces, { event_id: event.id }, as(w.ownerA));
    expect(faces.faces.map((f) => f.full_path)).toEqual(['faces/alpha-staff.jpg']);
  });

  it('refuses organisation-scoped calls about organisation A', async () => {
    for (const user of [w.adminB, w.ownerB]) {
      const scoped: [string, Endpoint, Record<string, unknown>][] = [
        ['event list', endpoints.eventBasicList, { organisation_id: w.orgA.id }],
        ['robot list', endpoints.robotList, { organisation_id: w.orgA.id }],
        ['image processes', endpoints.imageProcessList, { organisation_id: w.orgA.id }],
        ['templates', endpoints.pptList, { organisation_id: w.orgA.id }],
        ['robot create', endpoints.createRobot, { organisation_id: w.orgA.id, name: 'Spy' }],
        ['create event', endpoints.createEvent, { organisation_id: w.orgA.id, full_name: 'x' }],
        [
          'share upload',
          endpoints.shareBucketUploadAccess,
          { organisation_id: w.orgA.id, relativeFilePath: 'x.png' },
        ],
      ];
      for (const [name, endpoint, body] of scoped) {
        const response = await t.call(endpoint, body, as(user));
        expect(errorOf(response), name).toMatchObject({ status: 403, message_key: 'forbidden' });
        expectNoLeak(response.body);
      }
      const template = await t.call(endpoints.deletePpt, { id: templateA.id }, as(user));
      expect(errorOf(template)).toMatchObject({ status: 404, message_key: 'template_not_found' });
      // Their own lists hold nothing of A.
      for (const endpoint of [endpoints.robotList, endpoints.imageProcessList, endpoints.pptList]) {
        expectNoLeak((await t.call(endpoint, {}, as(user))).body);
      }
    }
    const robots = await t.ok(endpoints.robotList, {}, as(w.adminA));
    expect(robots.robots.map((r) => r.name)).toEqual(['Booth A']);
    expect(await t.app.container.repositories.printTemplates.findById(templateA.id)).toBeDefined();
  });

  it('refuses robots, image processes and templates of another organisation on an event', async () => {
    const robotB = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgB.id, name: 'Booth B' },
      as(w.adminB),
    );
    const processesB = await t.ok(endpoints.imageProcessList, {}, as(w.adminB));
    const templateB = await t.app.container.repositories.printTemplates.create({
      name: 'B private',
      organisationId: w.orgB.id,
    });
    const watermarkB = await t.app.container.repositories.printTemplates.create({
      name: 'B watermark',
      organisationId: w.orgB.id,
      isWatermark: true,
    });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ robot_id_array: [robotA.id, robotB.id] }, 'robot_not_found', 'robot_id_array'],
      [
        { image_process_id_array: [processesB.image_processes[0]!.id] },
        'image_process_not_found',
        'image_process_id_array',
      ],
      [{ ppt_id_array: [templateB.id] }, 'template_not_found', 'ppt_id_array'],
      [{ watermark_pt_id: watermarkB.id }, 'template_not_found', 'watermark_pt_id'],
      // A print template is not a watermark template.
      [{ watermark_pt_id: templateA.id }, 'template_not_found', 'watermark_pt_id'],
    ];
    for (const [patch, key, field] of cases) {
      const response = await t.call(
        endpoints.updateEvent,
        { ...patch, id: event.id, event_last_updated_date: event.updated_date },
        as(w.superUser),
      );
      expect(errorOf(response), key).toMatchObject({ status: 404, message_key: key, field });
    }
    expect(await readEvent(t, w.superUser, event.name)).toEqual(event);
    const robot = await t.ok(endpoints.robotList, { organisation_id: w.orgB.id }, as(w.superUser));
    expect(robot.robots[0]?.event_id).toBeNull();
  });

  it('refuses what a role may not do', async () => {
    const ownerRobot = await t.call(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Mine' },
      as(w.ownerA),
    );
    expect(errorOf(ownerRobot)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const ownerWatermarks = await t.call(endpoints.pptList, { is_watermark: 1 }, as(w.ownerA));
    expect(errorOf(ownerWatermarks)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const ownerDelete = await t.call(endpoints.deletePpt, { id: templateA.id }, as(w.ownerA));
    expect(errorOf(ownerDelete)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const publicTemplate = await t.app.container.repositories.printTemplates.create({
      name: 'Public frame',
    });
    const adminDeletesPublic = await t.call(
      endpoints.deletePpt,
      { id: publicTemplate.id },
      as(w.adminA),
    );
    expect(errorOf(adminDeletesPublic)).toMatchObject({ status: 403, message_key: 'forbidden' });
    expect(
      await t.app.container.repositories.printTemplates.findById(publicTemplate.id),
    ).toBeDefined();
    expect(await readEvent(t, w.superUser, event.name)).toEqual(event);
  });
});
