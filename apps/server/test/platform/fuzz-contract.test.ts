import {
  API_BASE,
  INT4_MAX,
  MAX_TEXT_LENGTH,
  endpoints,
  isErrorKey,
  type Endpoint,
} from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiKeyAuth, createEvent, createEventWorld } from '../helpers/events.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { startSquareDouble, type SquareDouble } from '../doubles/square/square-double.ts';

/**
 * A fuzz test generated from the contract: every endpoint, every field, with wrong
 * types, boundaries, NUL, unpaired surrogates, huge values and unknown fields. Every reply must
 * be the envelope, never a 5xx; values no field can accept must change nothing in the database.
 * Every body the endpoint's schema lets through goes through the app; of the bodies it refuses,
 * each is checked against that schema here and one per kind of refusal goes through the app
 * (`validate` says why that is the same proof).
 *
 * The generator reads each body's JSON Schema (what the API docs publish), not the server's
 * validation code, so it states what a client may send independently of how it is checked.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: Json[];
  const?: Json;
  default?: Json;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  additionalProperties?: boolean | JsonSchema;
  pattern?: string;
}

const HALF_EMOJI = '\uD83D';
const LONE_LOW = '\uDE00';

interface Context {
  eventId: number;
  orgId: number;
  publicKey: string;
}

/** One acceptable-looking value for a schema (a base body the mutations start from). */
const sample = (schema: JsonSchema, name: string, ctx: Context): Json => {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0] ?? null;
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) {
    const first = options.find((o) => o.type !== 'null') ?? options[0];
    return first ? sample(first, name, ctx) : null;
  }
  if (schema.allOf?.[0]) return sample(schema.allOf[0], name, ctx);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type ?? '') {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const key of schema.required ?? []) {
        const property = schema.properties?.[key];
        if (property) out[key] = sample(property, key, ctx);
      }
      return out;
    }
    case 'array':
      return schema.items ? [sample(schema.items, name, ctx)] : [];
    case 'integer':
    case 'number':
      if (/event_id$|^id$/.test(name)) return ctx.eventId;
      if (/organisation_id$/.test(name)) return ctx.orgId;
      return schema.minimum !== undefined ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'string':
      if (name === 'key_value') return ctx.publicKey;
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/x';
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    default:
      return null;
  }
};

/** Leaf paths of a base body with the schema each leaf had. */
const leaves = (schema: JsonSchema, prefix: string[] = []): [string[], JsonSchema][] => {
  const out: [string[], JsonSchema][] = [];
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (type.includes('object') && schema.properties) {
    for (const [key, property] of Object.entries(schema.properties)) {
      out.push([[...prefix, key], property]);
      out.push(...leaves(property, [...prefix, key]));
    }
  }
  for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    out.push(...leaves(option, prefix));
  }
  return out;
};

const setAt = (body: Json, path: string[], value: Json | undefined): Json => {
  const copy = structuredClone(body) as Record<string, Json>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, Json>;
  }
  const last = path.at(-1) as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
};

const typesOf = (schema: JsonSchema): Set<string> => {
  const out = new Set<string>();
  const visit = (s: JsonSchema): void => {
    if (s.const !== undefined || s.enum) out.add('enum');
    for (const t of Array.isArray(s.type) ? s.type : s.type ? [s.type] : []) out.add(t);
    for (const o of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) visit(o);
  };
  visit(schema);
  if (out.size === 0) out.add('any');
  return out;
};

/**
 * Values no field of this schema can accept (the call must be refused and change nothing), and
 * boundary values it might accept (the reply must still be the envelope, never a 5xx).
 *
 * One value per check the input rules make (packages/shared/src/api/input-rules.ts): NUL, each
 * branch of the unpaired-surrogate test, over the length, over and under the int4 range, the
 * wrong type (null, an object, a scalar of another type). Further values down the same check
 * (2^53 and 1e308 beside int4 + 1, an array beside the object, `true` beside 12 for text) cost a
 * call per field each and proved nothing more; they were dropped in session 18.
 */
const mutations = (schema: JsonSchema): { refused: Json[]; boundary: Json[] } => {
  const types = typesOf(schema);
  const refused: Json[] = [];
  const boundary: Json[] = [];
  if (types.has('any')) return { refused, boundary: ['\u0000', 2 ** 31, null, [], {}] };
  const onlyText = !['integer', 'number', 'boolean', 'object', 'array', 'null', 'enum'].some((t) =>
    types.has(t),
  );
  if (types.has('string') || types.has('enum')) {
    refused.push('a\u0000b', `x${HALF_EMOJI}`, `${LONE_LOW}x`, 'x'.repeat(MAX_TEXT_LENGTH + 1));
    // Emoji, a direction override and markup in one text: plain text to every check there is.
    boundary.push(
      '',
      "😀\u202e<script>'; drop table users; --",
      '../../etc/passwd',
      'x'.repeat(3000),
    );
  }
  if (types.has('integer') || types.has('number')) {
    refused.push(INT4_MAX + 1, -(INT4_MAX + 2));
    boundary.push(0, -1, INT4_MAX, 1.5);
  }
  if (!types.has('null')) refused.push(...(types.has('enum') ? [] : [null]));
  if (onlyText) refused.push(12);
  else if (!types.has('boolean') && !types.has('enum')) refused.push(true);
  if (!types.has('object') && !types.has('array')) refused.push({ $ne: 1 });
  if (types.has('boolean') && !types.has('string')) refused.push('true');
  if (types.has('object') || types.has('array')) boundary.push({}, [], 'x', 7);
  return { refused, boundary };
};

let t: TestApp;
let ctx: Context;
let authorization: string;

/** Every row of every table of ours (pg-boss's own bookkeeping aside), as one text. */
const fingerprint = async (): Promise<string> => {
  const { rows } = await t.database.executeSql(
    `select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name <> 'rate_limit_hits' -- counting requests is not a change
      order by table_name`,
  );
  const parts: string[] = [];
  for (const { table_name } of rows as { table_name: string }[]) {
    const result = await t.database.executeSql(
      // last_used_at of API keys: our own key signs every call in (a read, not a change).
      `select md5(coalesce(string_agg(r, '|' order by r), '')) as h, count(*)::int as n
         from (select (to_jsonb(x) - 'last_used_at')::text as r from "${table_name}" x) y`,
    );
    parts.push(`${table_name}:${String(result.rows[0]?.n)}:${String(result.rows[0]?.h)}`);
  }
  return parts.join('\n');
};

interface Finding {
  endpoint: string;
  body: string;
  status: number;
  reply: string;
}

/** Built once: a zod schema made per call compiles itself again on its first parse. */
const envelopeSchema = z.union([
  z.object({ status: z.literal('ok'), result: z.unknown() }),
  z.object({
    status: z.literal('nok'),
    error: z.object({ message_key: z.string().refine(isErrorKey), message: z.string() }),
  }),
]);

const isEnvelope = (statusCode: number, text: string): boolean => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const envelope = envelopeSchema.safeParse(parsed);
  if (!envelope.success) return false;
  return envelope.data.status === 'ok' ? statusCode === 200 : statusCode >= 400;
};

const send = async (
  name: string,
  endpoint: Endpoint,
  payload: string,
  findings: Finding[],
): Promise<{ statusCode: number; ok: boolean }> => {
  const response = await t.app.inject({
    method: 'POST',
    url: `${API_BASE}${endpoint.path}`,
    headers: {
      'content-type': 'application/json',
      ...(endpoint.auth === 'owner' || endpoint.auth === 'owner_optional' ? { authorization } : {}),
    },
    payload,
  });
  if (response.statusCode >= 500 || !isEnvelope(response.statusCode, response.body)) {
    findings.push({
      endpoint: name,
      body: payload.slice(0, 200),
      status: response.statusCode,
      reply: response.body.slice(0, 300),
    });
  }
  return { statusCode: response.statusCode, ok: response.statusCode === 200 };
};

/**
 * What the route's validator makes of a body, found in this process: the route validates with
 * the endpoint's own zod schema (`register-endpoints.ts`: `body: endpoint.body`, checked by
 * fastify-type-provider-zod's `safeParse` after Fastify's JSON parser), and a refused body
 * answers from its first issue alone (`http/error-handler.ts`: the issue's message gives the
 * key, its path the field). So a refused body's reply depends on the endpoint, that message and
 * the path; one body per endpoint, message and shape of path goes through the app (`refusal`
 * names the group), the rest are proved refused here. A schema that throws is a 5xx at the
 * route. A body its schema lets through meets the handler: it always goes through the app.
 */
type Validation =
  { valid: true } | { valid: false; refusal: string } | { valid: false; threw: string };

const validate = (endpoint: Endpoint, payload: string): Validation => {
  try {
    const result = endpoint.body.safeParse(JSON.parse(payload));
    if (result.success) return { valid: true };
    const first = result.error.issues[0];
    // The path's shape (keys and array indexes), not its names: the field's text is made alike
    // for every name, but a nested or indexed path makes a different text.
    const shape = (first?.path ?? []).map((key) => (typeof key === 'number' ? '#' : 'k')).join('');
    return { valid: false, refusal: `${first?.message ?? ''}|${shape}` };
  } catch (error) {
    return { valid: false, threw: error instanceof Error ? error.message : String(error) };
  }
};

const schemaOf = (endpoint: Endpoint): JsonSchema =>
  z.toJSONSchema(endpoint.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Endpoints whose success would end the fuzzing session's own sign-in. */
const LAST = new Set(['signOut', 'deleteApiKey']);
const ordered = Object.entries(endpoints as Record<string, Endpoint>).sort(
  ([a], [b]) => Number(LAST.has(a)) - Number(LAST.has(b)),
);

let square: SquareDouble;

/** Calls in flight at once where they cannot depend on one another. */
const BATCH = 16;

beforeAll(async () => {
  // Calls that reach a provider meet its double, never the internet: a fuzzed token is the
  // provider's refusal (an envelope with its error text), not a gateway error.
  square = await startSquareDouble();
  t = await createTestApp({ SQUARE_API_BASE: square.url });
  const world = await createEventWorld(t);
  // An API key outlives access tokens and is not revoked by a fuzzed sign-out.
  authorization = (await apiKeyAuth(t, world.superUser)).authorization;
  const event = await createEvent(t, world.adminA);
  ctx = { eventId: event.id, orgId: world.orgA.id, publicKey: event.public_api_key };
}, 120_000);
afterAll(async () => {
  await t?.close();
  await square?.close();
});

describe('fuzz from the contract', () => {
  it('values no field accepts: refused in the envelope, nothing changed', async () => {
    const findings: Finding[] = [];
    const accepted: string[] = [];
    let cases = 0;
    let sent = 0;
    const before = await fingerprint();
    for (const [index, [name, endpoint]] of ordered.entries()) {
      const schema = schemaOf(endpoint);
      const base = sample(schema, '', ctx);
      // Whole bodies of the wrong shape: not an object, not JSON, no body. A string and a deep
      // array meet the same checks as null and []; the first endpoint takes them all. They meet
      // Fastify's JSON parser, so they all go through the app.
      const calls: { payload: string; label: string }[] = [
        '[]',
        'null',
        '{"a":',
        '',
        ...(index === 0 ? ['"x"', '[[[[[[[[[[]]]]]]]]]]'] : []),
      ].map((payload) => ({ payload, label: payload }));
      const refusals = new Set<string>();
      for (const [path, leaf] of leaves(schema)) {
        for (const value of mutations(leaf).refused) {
          const payload = JSON.stringify(setAt(base, path, value));
          const label = `${path.join('.')}=${JSON.stringify(value).slice(0, 40)}`;
          cases += 1;
          const validation = validate(endpoint, payload);
          // A value its schema lets through meets the handler's own rules: it goes through the app.
          if (validation.valid) calls.push({ payload, label });
          else if ('threw' in validation)
            findings.push({ endpoint: name, body: payload, status: 500, reply: validation.threw });
          else if (!refusals.has(validation.refusal)) {
            refusals.add(validation.refusal);
            calls.push({ payload, label });
          }
        }
      }
      // Calls that must each be refused and change nothing do not depend on one another: one
      // endpoint's calls go together (the fingerprint after them all still sees any change).
      for (let i = 0; i < calls.length; i += BATCH) {
        const batch = calls.slice(i, i + BATCH);
        const replies = await Promise.all(
          batch.map(({ payload }) => send(name, endpoint, payload, findings)),
        );
        replies.forEach((reply, k) => {
          if (reply.ok) accepted.push(`${name} ${batch[k]?.label ?? ''}`);
        });
      }
      sent += calls.length;
    }
    expect(findings, JSON.stringify(findings.slice(0, 20), null, 1)).toEqual([]);
    expect(accepted).toEqual([]);
    expect(await fingerprint()).toBe(before);
    expect(cases).toBeGreaterThan(2000);
    // Every endpoint: the four wrong whole bodies and at least one refused field.
    expect(sent).toBeGreaterThan(5 * ordered.length);
  }, 300_000);

  it('boundary values and unknown fields: the envelope, never a 5xx', async () => {
    const findings: Finding[] = [];
    let cases = 0;
    let sent = 0;
    for (const [name, endpoint] of ordered) {
      const schema = schemaOf(endpoint);
      const base = sample(schema, '', ctx);
      // The base body and the unknown fields (`constructor` meets the JSON parser) go through
      // the app; so does every boundary value its schema lets through to the handler. A value
      // the schema refuses changes nothing: one per refusal group goes (see `validate`). A body
      // already sent is not sent again: removing a field the base body does not have gives the
      // base body, and the options of a union share their fields' paths.
      const payloads = new Set<string>([JSON.stringify(base)]);
      if (base && typeof base === 'object' && !Array.isArray(base)) {
        payloads.add(JSON.stringify({ ...base, constructor: { prototype: 1 } }));
        payloads.add(JSON.stringify({ ...base, zzz: '\u0000' }));
      }
      const refusals = new Set<string>();
      for (const [path, leaf] of leaves(schema)) {
        for (const value of [...mutations(leaf).boundary, undefined]) {
          const payload = JSON.stringify(setAt(base, path, value));
          const validation = validate(endpoint, payload);
          cases += 1;
          if (validation.valid) payloads.add(payload);
          else if ('threw' in validation)
            findings.push({
              endpoint: name,
              body: payload.slice(0, 200),
              status: 500,
              reply: validation.threw,
            });
          else if (!refusals.has(validation.refusal)) {
            refusals.add(validation.refusal);
            payloads.add(payload);
          }
        }
      }
      // One at a time, in the order made: some succeed and change what the next call meets.
      for (const payload of payloads) {
        sent += 1;
        await send(name, endpoint, payload, findings);
      }
    }
    expect(findings, JSON.stringify(findings.slice(0, 20), null, 1)).toEqual([]);
    expect(cases).toBeGreaterThan(2000);
    expect(sent).toBeGreaterThan(1000);
  }, 300_000);
});
