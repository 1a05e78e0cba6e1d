import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  INT4_MAX,
  INT4_MIN,
  LEAF_KINDS,
  MAX_TEXT_LENGTH,
  WALKED_KINDS,
  defineEndpoint,
  endpoints,
  hardenInput,
  isSafeText,
  wideInt,
} from '../src/index.ts';

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every schema reachable from `schema` (what a client's value can meet). */
const reachable = (schema: z.ZodType, out = new Set<z.ZodType>()): Set<z.ZodType> => {
  if (out.has(schema)) return out;
  out.add(schema);
  const def = defOf(schema);
  const children: unknown[] = [];
  if (def.type === 'object') {
    children.push(...Object.values(def.shape as Record<string, unknown>));
    if (def.catchall) children.push(def.catchall);
  } else if (def.type === 'union') children.push(...(def.options as unknown[]));
  else if (def.type === 'tuple') children.push(...(def.items as unknown[]), def.rest);
  else if (def.type === 'lazy') children.push((def.getter as () => unknown)());
  else
    for (const field of [
      'element',
      'innerType',
      'in',
      'out',
      'keyType',
      'valueType',
      'left',
      'right',
    ])
      children.push(def[field]);
  for (const child of children) if (child) reachable(child as z.ZodType, out);
  return out;
};

const HALF_EMOJI = '\uD83D';

describe('input rule: every string and integer of every endpoint body', () => {
  const all = Object.entries(endpoints).map(([name, e]) => [name, reachable(e.body)] as const);

  it('knows every kind of schema in the contract (a new kind must be walked or declared a leaf)', () => {
    const unknown = new Set<string>();
    for (const [, schemas] of all)
      for (const s of schemas) {
        const type = defOf(s).type;
        if (!LEAF_KINDS.has(type) && !WALKED_KINDS.has(type)) unknown.add(type);
      }
    expect([...unknown]).toEqual([]);
  });

  it('every string refuses NUL, an unpaired surrogate and an unbounded length', () => {
    let strings = 0;
    for (const [name, schemas] of all)
      for (const s of schemas) {
        if (defOf(s).type !== 'string') continue;
        strings += 1;
        const where = `${name}: ${JSON.stringify(defOf(s).checks ?? []).slice(0, 0)}`;
        expect(s.safeParse('a\u0000b').success, where).toBe(false);
        expect(s.safeParse(`a${HALF_EMOJI}`).success, where).toBe(false);
        expect(s.safeParse('\uDE00a').success, where).toBe(false);
        expect(s.safeParse('x'.repeat(MAX_TEXT_LENGTH + 1)).success, where).toBe(false);
      }
    expect(strings).toBeGreaterThan(100);
  });

  it('every integer stays inside PostgreSQL integer', () => {
    let ints = 0;
    for (const [name, schemas] of all)
      for (const s of schemas) {
        if (defOf(s).type !== 'number' || !(s as z.ZodNumber).isInt) continue;
        ints += 1;
        expect(s.safeParse(INT4_MAX + 1).success, name).toBe(false);
        expect(s.safeParse(INT4_MIN - 1).success, name).toBe(false);
      }
    expect(ints).toBeGreaterThan(20);
  });

  it('a whole body with NUL anywhere deep is refused with invalid_value on that field', () => {
    const body = endpoints.signIn.body;
    const result = body.safeParse({ username: 'ann\u0000', password: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('invalid_value');
    expect(result.error?.issues[0]?.path).toEqual(['username']);
  });
});

describe('hardenInput', () => {
  it('keeps valid text: emoji pairs, accents, a tighter max of the field', () => {
    const s = hardenInput(z.object({ name: z.string().max(5), note: z.string() }));
    expect(s.safeParse({ name: '😀é', note: 'ok 😀' }).success).toBe(true);
    expect(s.safeParse({ name: '123456', note: '' }).success).toBe(false);
    expect(isSafeText('😀')).toBe(true);
    expect(isSafeText(HALF_EMOJI)).toBe(false);
  });

  it('reaches strings inside arrays, optionals, defaults, unions, records (keys too), pipes', () => {
    const s = hardenInput(
      z.object({
        list: z.array(z.string()).optional(),
        maybe: z.string().nullable().default(null),
        either: z.union([z.string(), z.number().int()]),
        map: z.record(z.string(), z.string()),
        piped: z.preprocess((v) => v, z.string()),
      }),
    );
    const ok = { list: ['a'], maybe: 'b', either: 1, map: { k: 'v' }, piped: 'p' };
    expect(s.safeParse(ok).success).toBe(true);
    for (const bad of [
      { ...ok, list: ['\u0000'] },
      { ...ok, maybe: HALF_EMOJI },
      { ...ok, either: '\u0000' },
      { ...ok, either: 2 ** 31 },
      { ...ok, map: { 'k\u0000': 'v' } },
      { ...ok, map: { k: '\u0000' } },
      { ...ok, piped: '\u0000' },
    ]) {
      expect(s.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('an int8 field marked wideInt keeps the safe-integer range', () => {
    const s = hardenInput(z.object({ bytes: wideInt(z.number().int()) }));
    expect(s.safeParse({ bytes: 2 ** 40 }).success).toBe(true);
  });

  it('defineEndpoint applies it, and descriptions still reach the API docs', () => {
    const e = defineEndpoint({
      path: '/x',
      auth: 'none',
      tag: 't',
      summary: 's',
      body: z.object({ n: z.number().int().describe('A number') }),
      result: z.object({}),
      errors: [],
    });
    expect(e.body.safeParse({ n: 2 ** 31 }).success).toBe(false);
    expect(e.body.safeParse({ n: 7 }).success).toBe(true);
    const json = z.toJSONSchema(e.body, { io: 'input' }) as unknown as {
      properties: { n: { description?: string } };
    };
    expect(json.properties.n.description).toBe('A number');
  });
});
