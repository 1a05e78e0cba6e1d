import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDisjoint } from '../../src/container.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * What the container guarantees, whatever its wiring files look like: it boots with its worker on
 * this engine (both engines run this file); every service or repository the routes, the HTTP
 * layer, start-up or the CLI reach through it exists, wired, with the method they call; two
 * domains never define the same name. Which services exist is the wiring's business, not this
 * test's.
 */

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const engine = process.env.FLASHBULB_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** Every source file that uses the container from outside: all but the wiring and the layers it wires. */
const consumers = (readdirSync(SRC, { recursive: true }) as string[])
  .map((name) => name.split(path.sep).join('/'))
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
  .filter((name) => !/^(container\.ts|container\/|services\/|repositories\/)/.test(name));

/** `services.<name>.<member>` (or `repositories.…`) as written in those files, with where. */
const uses = consumers.flatMap((file) =>
  [
    ...readFileSync(path.join(SRC, file), 'utf8').matchAll(
      /\b(services|repositories)\.([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?/g,
    ),
  ].map(([, kind, name, member]) => ({
    file,
    kind: kind as 'services' | 'repositories',
    name: name!,
    member,
  })),
);

let t: TestApp;

beforeAll(async () => {
  // The worker too: it binds every job handler to the container's services.
  t = await createTestApp({}, { worker: true });
});
afterAll(async () => {
  await t?.close();
});

describe(`the container (${engine})`, () => {
  it('boots with its worker, and is the one the app serves with', async () => {
    expect(t.app.container.database.engine).toBe(engine);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toMatchObject({
      checks: { database: 'ok', migrations: 'ok', storage: 'ok', worker: 'ok' },
    });
  });

  it('wires every service and repository: each is an object, none missing', () => {
    const { services, repositories } = t.app.container;
    expect(Object.keys(services).length).toBeGreaterThan(0);
    expect(Object.keys(repositories).length).toBeGreaterThan(0);
    for (const [kind, group] of Object.entries({ services, repositories }))
      for (const [name, value] of Object.entries(group))
        expect(typeof value === 'object' && value !== null, `${kind}.${name}`).toBe(true);
  });

  it('has every service and repository the routes, HTTP layer, start-up and CLI reach', () => {
    // The scan finds what it should: the handlers' table calls services.
    expect(uses.some((u) => u.file === 'routes/handlers.ts' && u.kind === 'services')).toBe(true);
    const container = t.app.container as unknown as Record<
      'services' | 'repositories',
      Record<string, Record<string, unknown> | undefined>
    >;
    const missing: string[] = [];
    for (const use of uses) {
      const target = container[use.kind][use.name];
      const where = `${use.file}: ${use.kind}.${use.name}${use.member ? `.${use.member}` : ''}`;
      if (typeof target !== 'object' || target === null) missing.push(where);
      else if (use.member && typeof target[use.member] !== 'function') missing.push(where);
    }
    expect(missing).toEqual([]);
  });
});

describe('domains are disjoint', () => {
  it('composes domains that name different things', () => {
    expect(() => assertDisjoint('services', [{ mail: 1 }, { sms: 2 }])).not.toThrow();
  });

  it('refuses two domains that define the same name, naming it', () => {
    expect(() => assertDisjoint('services', [{ mail: 1 }, { sms: 2, mail: 3 }])).toThrow(
      'container: two domains define services.mail',
    );
    expect(() => assertDisjoint('repositories', [{ a: 1 }, {}, { b: 1, a: 2 }])).toThrow(
      'container: two domains define repositories.a',
    );
  });
});
