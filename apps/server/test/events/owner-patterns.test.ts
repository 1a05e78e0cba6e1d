import { endpoints } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRobotWorld, errorOf, validEventBody } from '../helpers/events.ts';
import { completeUpload, makeJpeg } from '../helpers/photos.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let w: Awaited<ReturnType<typeof createRobotWorld>>;
beforeAll(async () => {
  t = await createTestApp();
  w = await createRobotWorld(t);
});
afterAll(async () => {
  await t?.close();
});

const create = (opts: Record<string, unknown>) =>
  t.call(
    endpoints.createEvent,
    validEventBody({
      robot_id_array: [w.robotId],
      opts: { description: 'Patterns', ...opts },
    }),
    w.admin,
  );

describe('operators’ attendee-id patterns', () => {
  it('refuses at save a pattern the linear-time engine cannot run (back-references, look-around)', async () => {
    for (const pattern of ['^(A)\\1$', '^(?=A)A+$', '^(?<!B)A$', '^(?<id>A)\\k<id>$']) {
      expect(errorOf(await create({ attendeeIdRegex: pattern })), pattern).toMatchObject({
        status: 400,
        message_key: 'regex_invalid',
        field: 'opts.attendeeIdRegex',
      });
    }
    expect(
      errorOf(await create({ attendeeIdRegex: '^[A-Z]+$', attendeeIdVipRegex: '^(V)\\1' })),
    ).toMatchObject({
      status: 400,
      message_key: 'regex_invalid',
      field: 'opts.attendeeIdVipRegex',
    });
    // An escaped backslash before a digit is a literal, not a back-reference.
    expect((await create({ attendeeIdRegex: '^A\\\\1[(]?$' })).body.status).toBe('ok');
  });

  it('runs a catastrophic pattern on an uploaded id in linear time (no server-wide stall)', async () => {
    const created = await create({
      attendeeIdRegex: '^(A+)+B$',
      attendeeIdVipRegex: '^(A+)+C$',
      photoDelayVipMinutes: 5,
    });
    expect(created.body.status).toBe('ok');
    if (created.body.status !== 'ok') return;
    const event = created.body.result;
    // 27 characters: JavaScript's backtracking engine needs tens of seconds per pattern for this.
    const id = 'A'.repeat(27);
    const grant = await t.ok(endpoints.photoUploadAccess, {
      ...w.robot,
      event_name: event.name,
      file_name: 'booth.jpg',
      content_type: 'image/jpeg',
      attendee_uid: id,
    });
    const form = multipartBody(
      grantForm(grant.fields, await makeJpeg({ seed: 9 }), {
        filename: 'booth.jpg',
        contentType: 'image/jpeg',
      }),
    );
    const stored = await t.app.inject({
      method: 'POST',
      url: new URL(grant.url).pathname,
      payload: form.payload,
      headers: form.headers,
    });
    expect(stored.statusCode).toBe(201);
    const started = Date.now();
    const done = await completeUpload(t, w.robot, grant.key);
    const took = Date.now() - started;
    expect(done.body.status).toBe('ok');
    // Generous: the upload itself takes well under a second; the backtracking engine, minutes.
    expect(took).toBeLessThan(8000);
    // The id does not match the pattern: no attendee was made of it.
    const { rows } = await t.database.executeSql('select 1 from attendees where uid = $1', [id]);
    expect(rows).toHaveLength(0);
  });
});
