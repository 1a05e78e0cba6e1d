import { readFile } from 'node:fs/promises';
import { endpoints, type BodyOf } from '@flashbulb/shared';
import { describe, expect, it } from 'vitest';
import {
  as,
  createEvent,
  errorOf,
  eventWorldPerFile,
  readEvent,
  validEventBody,
  type EventWorld,
} from '../helpers/events.ts';
import { makeJpeg, uploadPhoto } from '../helpers/photos.ts';
import type { TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let w: EventWorld;

eventWorldPerFile((app, world) => {
  t = app;
  w = world;
});

describe('robots', () => {
  it('created from an event feed it at once; another organisation’s event is not there', async () => {
    const event = await createEvent(t, w.adminA);
    const robot = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Gate booth', event_id: event.id },
      as(w.adminA),
    );
    expect(robot).toMatchObject({ event_id: event.id, event_name: event.name });
    expect((await readEvent(t, w.adminA, event.name)).robot_id_array).toContain(robot.id);
    // Its key uploads to the event straight away.
    const grant = await t.call(endpoints.photoUploadAccess, {
      key_type: 'robot',
      key_value: robot.api_key,
      event_name: event.name,
      file_name: 'a.jpg',
      content_type: 'image/jpeg',
    });
    expect(grant.statusCode).toBe(200);
    // An event of another organisation, or one the robot's organisation does not hold: refused,
    // and no robot is made.
    const before = (await t.ok(endpoints.robotList, {}, as(w.superUser))).robots.length;
    const theirs = await createEvent(t, w.adminB);
    const refused = await t.call(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Stray', event_id: theirs.id },
      as(w.adminA),
    );
    expect(errorOf(refused)).toMatchObject({ status: 404, message_key: 'event_not_found' });
    const mismatch = await t.call(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Stray', event_id: theirs.id },
      as(w.superUser),
    );
    expect(errorOf(mismatch)).toMatchObject({ message_key: 'event_not_found', field: 'event_id' });
    expect((await t.ok(endpoints.robotList, {}, as(w.superUser))).robots).toHaveLength(before);
  });

  it('are created by super users and admins with a key shown once, and listed per organisation', async () => {
    const robot = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: ' Booth 1 ' },
      as(w.adminA),
    );
    expect(robot).toMatchObject({
      name: 'Booth 1',
      organisation_id: w.orgA.id,
      event_id: null,
      event_name: null,
    });
    expect(robot.api_key).toMatch(/^fbr_/);
    const bySuper = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgB.id, name: 'Booth B' },
      as(w.superUser),
    );
    const missingOrg = await t.call(
      endpoints.createRobot,
      { organisation_id: 99_999, name: 'x' },
      as(w.superUser),
    );
    expect(errorOf(missingOrg)).toMatchObject({
      status: 404,
      message_key: 'organisation_not_found',
    });
    const noName = await t.call(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: '  ' },
      as(w.adminA),
    );
    expect(errorOf(noName)).toMatchObject({
      status: 400,
      message_key: 'robot_name_required',
      field: 'name',
    });

    const listA = await t.ok(endpoints.robotList, {}, as(w.ownerA));
    expect(listA.robots.map((r) => r.id)).toContain(robot.id);
    expect(listA.robots.map((r) => r.id)).not.toContain(bySuper.id);
    expect(JSON.stringify(listA)).not.toContain(robot.api_key);
    const all = await t.ok(endpoints.robotList, {}, as(w.superUser));
    expect(all.robots.map((r) => r.id)).toEqual(expect.arrayContaining([robot.id, bySuper.id]));
    const onlyB = await t.ok(endpoints.robotList, { organisation_id: w.orgB.id }, as(w.superUser));
    expect(onlyB.robots.map((r) => r.id)).toEqual([bySuper.id]);
    const { rows } = await t.database.executeSql('select * from robots where id = $1', [robot.id]);
    expect(JSON.stringify(rows)).not.toContain(robot.api_key);
  });

  it('move off their previous event when chosen for another, and leave when unchosen', async () => {
    const r1 = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Mover' },
      as(w.adminA),
    );
    const r2 = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Stayer' },
      as(w.adminA),
    );
    const first = await createEvent(t, w.adminA, { robot_id_array: [r1.id, r2.id, r1.id] });
    expect(first.robot_id_array).toEqual([r1.id, r2.id].sort((a, b) => a - b));
    // The admin manages both events, so may move the robot.
    const second = await createEvent(t, w.adminA, { robot_id_array: [r1.id] });
    expect(second.robot_id_array).toEqual([r1.id]);
    expect((await readEvent(t, w.superUser, first.name)).robot_id_array).toEqual([r2.id]);
    const listed = await t.ok(endpoints.robotList, {}, as(w.adminA));
    expect(listed.robots.find((r) => r.id === r1.id)).toMatchObject({
      event_id: second.id,
      event_name: second.name,
    });

    const cleared = await t.ok(
      endpoints.updateEvent,
      { id: second.id, event_last_updated_date: second.updated_date, robot_id_array: [] },
      as(w.adminA),
    );
    expect(cleared.robot_id_array).toEqual([]);
    const after = await t.ok(endpoints.robotList, {}, as(w.adminA));
    expect(after.robots.find((r) => r.id === r1.id)?.event_id).toBeNull();

    // Deleting an event disconnects its robots.
    await t.ok(endpoints.deleteEvent, { event_id: first.id }, as(w.adminA));
    const afterDelete = await t.ok(endpoints.robotList, {}, as(w.adminA));
    expect(afterDelete.robots.find((r) => r.id === r2.id)?.event_id).toBeNull();
  });
});

describe('moving a robot', () => {
  it('needs the right to manage the event it serves now; otherwise nothing changes', async () => {
    const booth = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Admin booth' },
      as(w.adminA),
    );
    const adminsEvent = await createEvent(t, w.adminA, {
      full_name: 'Admin party',
      robot_id_array: [booth.id],
    });
    const ownersEvent = await createEvent(t, w.ownerA, { full_name: 'Owner party' });

    // An event owner of the same organisation lists the admin's booth: refused, on save and on
    // create, and the booth keeps serving the admin's event.
    const taken = await t.call(
      endpoints.updateEvent,
      {
        id: ownersEvent.id,
        event_last_updated_date: ownersEvent.updated_date,
        robot_id_array: [booth.id],
      },
      as(w.ownerA),
    );
    expect(errorOf(taken)).toMatchObject({
      status: 403,
      message_key: 'robot_serves_other_event',
      field: 'robot_id_array',
    });
    const created = await t.call(
      endpoints.createEvent,
      validEventBody({ full_name: 'Grab', robot_id_array: [booth.id] }),
      as(w.ownerA),
    );
    expect(errorOf(created)).toMatchObject({
      status: 403,
      message_key: 'robot_serves_other_event',
      field: 'robot_id_array',
    });
    expect((await readEvent(t, w.superUser, adminsEvent.name)).robot_id_array).toEqual([booth.id]);
    expect((await readEvent(t, w.superUser, ownersEvent.name)).robot_id_array).toEqual([]);
    const owned = await t.call(
      endpoints.eventBasicList,
      { visibility: 'all', page_number: 1 },
      as(w.ownerA),
    );
    expect(JSON.stringify(owned.body)).not.toContain('Grab');

    // A free booth (no event) may be chosen; one already on the owner's own event stays listed.
    const free = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Free booth' },
      as(w.adminA),
    );
    const withFree = await t.ok(
      endpoints.updateEvent,
      {
        id: ownersEvent.id,
        event_last_updated_date: ownersEvent.updated_date,
        robot_id_array: [free.id],
      },
      as(w.ownerA),
    );
    expect(withFree.robot_id_array).toEqual([free.id]);
    const again = await t.ok(
      endpoints.updateEvent,
      {
        id: ownersEvent.id,
        event_last_updated_date: withFree.updated_date,
        full_name: 'Owner party 2',
      },
      as(w.ownerA),
    );
    expect(again.robot_id_array).toEqual([free.id]);

    // The admin manages both events: the move goes through.
    const moved = await t.ok(
      endpoints.updateEvent,
      {
        id: ownersEvent.id,
        event_last_updated_date: again.updated_date,
        robot_id_array: [free.id, booth.id],
      },
      as(w.adminA),
    );
    expect(new Set(moved.robot_id_array)).toEqual(new Set([free.id, booth.id]));
    expect((await readEvent(t, w.superUser, adminsEvent.name)).robot_id_array).toEqual([]);
  });
});

describe('robot keys and last upload', () => {
  it('regenerate a key shown once (the old one stops at once) and show the last upload', async () => {
    const robot = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Regen booth' },
      as(w.adminA),
    );
    const event = await createEvent(t, w.adminA, {
      full_name: 'Regen event',
      robot_id_array: [robot.id],
    });
    const listed = async () =>
      (await t.ok(endpoints.robotList, { organisation_id: w.orgA.id }, as(w.adminA))).robots.find(
        (r) => r.id === robot.id,
      );
    expect(await listed()).toMatchObject({
      event_id: event.id,
      event_name: event.name,
      last_upload_date: null,
      upload_count: 0,
    });
    const before = t.clock.now().toISOString();
    await uploadPhoto(
      t,
      { key_type: 'robot', key_value: robot.api_key },
      event.name,
      await makeJpeg({ seed: 16 }),
    );
    const afterUpload = await listed();
    expect(afterUpload?.last_upload_date).not.toBeNull();
    expect(afterUpload?.upload_count).toBe(1);
    expect(Date.parse(afterUpload!.last_upload_date!)).toBeGreaterThanOrEqual(
      Date.parse(before) - 1000,
    );

    // Another organisation's admin finds no such robot; an event owner may not; nothing changes.
    const foreign = await t.call(endpoints.regenerateRobotKey, { id: robot.id }, as(w.adminB));
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'robot_not_found' });
    const owner = await t.call(endpoints.regenerateRobotKey, { id: robot.id }, as(w.ownerA));
    expect(errorOf(owner)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const missing = await t.call(endpoints.regenerateRobotKey, { id: 99_999 }, as(w.superUser));
    expect(errorOf(missing)).toMatchObject({ status: 404, message_key: 'robot_not_found' });
    const stillOld = await t.call(
      endpoints.photoUploadAccess,
      {
        key_type: 'robot',
        key_value: robot.api_key,
        event_name: event.name,
        file_name: 'a.jpg',
        content_type: 'image/jpeg',
      },
      {},
    );
    expect(stillOld.statusCode).toBe(200);

    const renewed = await t.ok(endpoints.regenerateRobotKey, { id: robot.id }, as(w.adminA));
    expect(renewed.api_key).toMatch(/^fbr_/);
    expect(renewed.api_key).not.toBe(robot.api_key);
    expect(renewed).toMatchObject({ id: robot.id, event_id: event.id });
    const old = await t.call(
      endpoints.photoUploadAccess,
      {
        key_type: 'robot',
        key_value: robot.api_key,
        event_name: event.name,
        file_name: 'b.jpg',
        content_type: 'image/jpeg',
      },
      {},
    );
    expect(errorOf(old)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    await uploadPhoto(
      t,
      { key_type: 'robot', key_value: renewed.api_key },
      event.name,
      await makeJpeg({ seed: 17 }),
    );
    const { rows } = await t.database.executeSql('select key_hash from robots where id = $1', [
      robot.id,
    ]);
    expect(JSON.stringify(rows)).not.toContain(renewed.api_key);
  });
});

describe('robots that explain themselves', () => {
  it('a robot key hears its robot and event, that it feeds none, or that no robot has it', async () => {
    const event = await createEvent(t, w.adminA, { full_name: 'Whoami gala' });
    const robot = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Whoami booth', event_id: event.id },
      as(w.adminA),
    );
    const mine = await t.ok(endpoints.robotWhoami, {
      key_type: 'robot',
      key_value: robot.api_key,
    });
    expect(mine).toEqual({
      robot: { id: robot.id, name: 'Whoami booth' },
      event: { id: event.id, name: event.name, full_name: 'Whoami gala' },
    });
    const loose = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Loose whoami' },
      as(w.adminA),
    );
    const unattached = await t.call(endpoints.robotWhoami, {
      key_type: 'robot',
      key_value: loose.api_key,
    });
    expect(errorOf(unattached)).toMatchObject({ message_key: 'robot_not_attached' });
    const unknown = await t.call(endpoints.robotWhoami, {
      key_type: 'robot',
      key_value: 'fbr_nobody-has-this-key',
    });
    // A wrong key learns nothing: no robot, no event.
    expect(errorOf(unknown)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    expect(JSON.stringify(unknown.body)).not.toContain(event.name);
  });
});

describe('robot activity log', () => {
  it('lists uploads and reported activities newest first, by event, robot and time, a page at a time', async () => {
    const event = await createEvent(t, w.adminA, { full_name: 'Activity fair' });
    const booth = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Activity booth', event_id: event.id },
      as(w.adminA),
    );
    const other = await createEvent(t, w.adminA, { full_name: 'Other fair' });
    const roamer = await t.ok(
      endpoints.createRobot,
      { organisation_id: w.orgA.id, name: 'Activity roamer', event_id: other.id },
      as(w.adminA),
    );
    const boothKey = { key_type: 'robot', key_value: booth.api_key } as const;
    // Photos take the app's clock, activities the database's: before both.
    const start = new Date(Math.min(Date.now(), t.clock.now().getTime()) - 60_000).toISOString();
    const first = await uploadPhoto(t, boothKey, event.name, await makeJpeg({ seed: 51 }), 'A.jpg');
    await uploadPhoto(t, boothKey, event.name, await makeJpeg({ seed: 52 }), 'B.jpg');
    await t.ok(endpoints.createActivity, {
      ...boothKey,
      robot_id: booth.id,
      photo_id: first.id,
      activity_name: 'Printed',
      type: 'warning',
    });
    await uploadPhoto(
      t,
      { key_type: 'robot', key_value: roamer.api_key },
      other.name,
      await makeJpeg({ seed: 53 }),
      'R.jpg',
    );

    const list = (body: BodyOf<typeof endpoints.robotActivityList>, who = w.adminA) =>
      t.ok(endpoints.robotActivityList, body, as(who));
    const ofEvent = await list({ event_id: event.id });
    expect(ofEvent.entries.map((e) => [e.kind, e.name, e.type])).toEqual([
      ['activity', 'Printed', 'warning'],
      ['upload', 'B.jpg', 'info'],
      ['upload', 'A.jpg', 'info'],
    ]);
    expect(ofEvent.entries[0]).toMatchObject({
      robot_id: booth.id,
      robot_name: 'Activity booth',
      event_id: event.id,
      event_name: event.name,
      photo_id: first.id,
    });
    expect(ofEvent.next_cursor).toBeNull();

    // Pages: each entry once, in order.
    const page1 = await list({ event_id: event.id, from: start, limit: 2 });
    expect(page1.entries).toHaveLength(2);
    expect(page1.next_cursor).not.toBeNull();
    const page2 = await list({ event_id: event.id, limit: 2, cursor: page1.next_cursor ?? '' });
    const paged = [...page1.entries, ...page2.entries].map((e) => e.name);
    expect(paged).toEqual(['Printed', 'B.jpg', 'A.jpg']);
    expect(page2.next_cursor).toBeNull();
    // The organisation's log holds every robot of it.
    const wide = await list({ organisation_id: w.orgA.id, limit: 200 });
    expect(wide.entries.map((e) => e.name)).toEqual(
      expect.arrayContaining(['R.jpg', 'Printed', 'B.jpg', 'A.jpg']),
    );

    // By robot; by time.
    const ofRoamer = await list({ robot_id: roamer.id });
    expect(ofRoamer.entries.map((e) => e.name)).toEqual(['R.jpg']);
    expect((await list({ robot_id: booth.id, to: start })).entries).toEqual([]);
    expect(
      (
        await list({
          event_id: event.id,
          from: new Date(Math.max(Date.now(), t.clock.now().getTime()) + 60_000).toISOString(),
        })
      ).entries,
    ).toEqual([]);

    // Out of reach: another organisation's event or robot is not there; event owners name an event.
    const foreignEvent = await t.call(
      endpoints.robotActivityList,
      { event_id: event.id },
      as(w.adminB),
    );
    expect(errorOf(foreignEvent)).toMatchObject({ status: 404, message_key: 'event_not_found' });
    const foreignRobot = await t.call(
      endpoints.robotActivityList,
      { robot_id: booth.id },
      as(w.adminB),
    );
    expect(errorOf(foreignRobot)).toMatchObject({ status: 404, message_key: 'robot_not_found' });
    const ownerWide = await t.call(endpoints.robotActivityList, {}, as(w.ownerA));
    expect(errorOf(ownerWide)).toMatchObject({ status: 403, message_key: 'forbidden' });
    // Bad input: a clear key, never a 500.
    for (const body of [{ cursor: 'x' }, { from: 'yesterday' }, { limit: 0 }]) {
      const bad = await t.call(endpoints.robotActivityList, body, as(w.adminA));
      expect(errorOf(bad)).toMatchObject({ status: 400, message_key: 'invalid_value' });
    }
  });
});

describe('image processes', () => {
  it('start with the defaults for every new organisation, in order', async () => {
    const list = await t.ok(endpoints.imageProcessList, {}, as(w.ownerA));
    expect(list.image_processes.map((p) => [p.name, p.kind, p.auto_print])).toEqual([
      ['Original', 'original', false],
      ['Resize 2000', 'resize', false],
      ['Watermark', 'watermark', false],
      ['Print 4x6', 'print', true],
    ]);
    expect(list.image_processes.every((p) => p.organisation_id === w.orgA.id)).toBe(true);
    const all = await t.ok(endpoints.imageProcessList, {}, as(w.superUser));
    expect(all.image_processes).toHaveLength(8);
  });

  it('are chosen per event in order; the auto-print ones are listed for the event', async () => {
    const { image_processes: steps } = await t.ok(endpoints.imageProcessList, {}, as(w.adminA));
    const ids = [steps[3]!.id, steps[1]!.id];
    const event = await createEvent(t, w.adminA, { image_process_id_array: ids });
    expect(event.image_process_id_array).toEqual(ids);
    const auto = await t.ok(endpoints.autoPrintProcesses, { event_id: event.id }, as(w.adminA));
    expect(auto.image_processes.map((p) => p.name)).toEqual(['Print 4x6']);
    const none = await createEvent(t, w.adminA, { image_process_id_array: [steps[0]!.id] });
    const noneAuto = await t.ok(endpoints.autoPrintProcesses, { event_id: none.id }, as(w.adminA));
    expect(noneAuto.image_processes).toEqual([]);
  });
});

describe('image process seeding of existing organisations (migration 0002)', () => {
  it('gives organisations without steps the defaults, once', async () => {
    const bare = await t.app.container.repositories.organisations.create('Made before processes');
    const migration = await readFile(
      new URL('../../drizzle/0002_seed_image_processes.sql', import.meta.url),
      'utf8',
    );
    await t.database.executeSql(migration);
    await t.database.executeSql(migration);
    const list = await t.ok(
      endpoints.imageProcessList,
      { organisation_id: bare!.id },
      as(w.superUser),
    );
    expect(list.image_processes.map((p) => [p.name, p.auto_print])).toEqual([
      ['Original', false],
      ['Resize 2000', false],
      ['Watermark', false],
      ['Print 4x6', true],
    ]);
    const a = await t.ok(endpoints.imageProcessList, {}, as(w.adminA));
    expect(a.image_processes).toHaveLength(4);
  });
});

describe('print and watermark templates', () => {
  it('list public and private ones per kind, and delete by the role rules', async () => {
    const repo = t.app.container.repositories.printTemplates;
    const publicPrint = await repo.create({ name: 'Public 4x6', placeholderCounts: 2 });
    const privateA = await repo.create({
      name: 'A strip',
      organisationId: w.orgA.id,
      placeholderCounts: 4,
    });
    const privateB = await repo.create({ name: 'B strip', organisationId: w.orgB.id });
    const watermarkA = await repo.create({
      name: 'A mark',
      organisationId: w.orgA.id,
      isWatermark: true,
    });

    const prints = await t.ok(endpoints.pptList, { is_watermark: 0 }, as(w.ownerA));
    expect(prints.public_ppt_list.map((p) => p.name)).toEqual(['Public 4x6']);
    expect(prints.private_ppt_list).toEqual([
      expect.objectContaining({
        id: privateA.id,
        name: 'A strip',
        organisation_name: 'Alpha Events',
        placeholder_counts: 4,
        is_public: false,
      }),
    ]);
    expect(prints.public_ppt_list[0]).toMatchObject({
      is_public: true,
      organisation_id: null,
      placeholder_counts: 2,
    });
    const marks = await t.ok(
      endpoints.pptList,
      { organisation_id: w.orgA.id, is_watermark: true },
      as(w.adminA),
    );
    expect(marks.private_ppt_list.map((p) => p.id)).toEqual([watermarkA.id]);
    expect(marks.public_ppt_list).toEqual([]);
    const superAll = await t.ok(endpoints.pptList, {}, as(w.superUser));
    expect(superAll.private_ppt_list.map((p) => p.id)).toEqual([privateA.id, privateB.id]);

    const event = await createEvent(t, w.adminA, {
      ppt_id_array: [privateA.id, publicPrint.id],
      watermark_pt_id: watermarkA.id,
      max_print_photos_count: 4,
      place_holder_count: 4,
    });
    expect(event.ppt_id_array).toEqual([privateA.id, publicPrint.id]);

    await t.ok(endpoints.deletePpt, { id: privateA.id }, as(w.adminA));
    await t.ok(endpoints.deletePpt, { id: watermarkA.id }, as(w.adminA));
    const afterDelete = await readEvent(t, w.superUser, event.name);
    expect(afterDelete.ppt_id_array).toEqual([publicPrint.id]);
    expect(afterDelete.watermark_pt_id).toBeNull();
    const again = await t.call(endpoints.deletePpt, { id: privateA.id }, as(w.adminA));
    expect(errorOf(again)).toMatchObject({ status: 404, message_key: 'template_not_found' });
    await t.ok(endpoints.deletePpt, { id: publicPrint.id }, as(w.superUser));
    expect(await repo.findById(publicPrint.id)).toBeUndefined();
  });
});

describe('ignored faces and stock images', () => {
  it('store faces per event, once each, and delete only the event’s own', async () => {
    const event = await createEvent(t, w.ownerA);
    const other = await createEvent(t, w.ownerA);
    const face = await t.ok(
      endpoints.createIgnoredFace,
      { event_id: event.id, full_path: 'staff/ann.jpg' },
      as(w.ownerA),
    );
    const twice = await t.ok(
      endpoints.createIgnoredFace,
      { event_id: event.id, full_path: 'staff/ann.jpg' },
      as(w.ownerA),
    );
    expect(twice.id).toBe(face.id);
    const otherFace = await t.ok(
      endpoints.createIgnoredFace,
      { event_id: other.id, full_path: 'staff/bob.jpg' },
      as(w.ownerA),
    );
    const list = await t.ok(endpoints.listIgnoredFaces, { event_id: event.id }, as(w.adminA));
    expect(list.faces).toEqual([
      expect.objectContaining({ id: face.id, event_id: event.id, full_path: 'staff/ann.jpg' }),
    ]);
    const deleted = await t.ok(
      endpoints.deleteIgnoredFaces,
      { event_id: event.id, ids: [face.id, otherFace.id] },
      as(w.ownerA),
    );
    expect(deleted).toEqual({ deleted: 1 });
    expect(
      (await t.ok(endpoints.listIgnoredFaces, { event_id: other.id }, as(w.ownerA))).faces,
    ).toHaveLength(1);
    const empty = await t.call(
      endpoints.createIgnoredFace,
      { event_id: event.id, full_path: ' ' },
      as(w.ownerA),
    );
    expect(errorOf(empty)).toMatchObject({ status: 400, field: 'full_path' });
  });

  it('list the event’s stock images and switch', async () => {
    const image = {
      uid: 'u1',
      imgUrl: 'https://cdn.example/stock/a.jpg',
      imgTmbUrl: 'https://cdn.example/stock/a-tmb.jpg',
      imgSize: 100,
      imgTmbSize: 10,
      dateStart: '2026-06-01 10:00',
      dateEnd: '2026-06-02 10:00',
      policy: { exc: ['vip'] },
    };
    const event = await createEvent(t, w.ownerA, {
      opts: { description: 'd', stockImagesEnable: true, stockImages: [image] },
    });
    expect(event.stock_images_enable).toBe(1);
    const list = await t.ok(endpoints.stockImageList, { event_id: event.id }, as(w.ownerA));
    expect(list).toEqual({ stock_images_enable: true, stock_images: [image] });
    const off = await t.ok(
      endpoints.updateEvent,
      { id: event.id, event_last_updated_date: event.updated_date, stock_images_enable: 0 },
      as(w.ownerA),
    );
    expect(off.opts.stockImagesEnable).toBe(false);
    expect(
      (await t.ok(endpoints.stockImageList, { event_id: event.id }, as(w.ownerA)))
        .stock_images_enable,
    ).toBe(false);
  });
});
