import { z } from 'zod';

/**
 * One rule for every value a client sends, applied to each endpoint's body by
 * `defineEndpoint`, so a new field gets it without anybody remembering:
 *
 * - every string: valid Unicode (no unpaired UTF-16 surrogate, e.g. half an emoji), no NUL
 *   (PostgreSQL text cannot hold `\u0000`), at most {@link MAX_TEXT_LENGTH} characters unless the
 *   field has a tighter `.max()`; record keys too;
 * - every integer: within PostgreSQL `integer` (int4) unless the field is marked {@link wideInt}
 *   (an int8 column) or declares tighter bounds itself.
 *
 * A value breaking the rule is refused with `invalid_value` on its field, before any handler runs.
 */
export const MAX_TEXT_LENGTH = 65_536;
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `value` can be stored and shown as text: valid Unicode and no NUL. */
export const isSafeText = (value: string): boolean =>
  !value.includes('\u0000') && !UNPAIRED_SURROGATE.test(value);

const wide = new WeakSet<z.ZodType>();
const hardened = new WeakSet<z.ZodType>();

/** Marks an integer field as stored in an int8 (bigint) column: safe-integer range, not int4. */
export const wideInt = <T extends z.ZodNumber>(schema: T): T => {
  wide.add(schema);
  return schema;
};

type AnySchema = z.ZodType & {
  _zod: { def: Record<string, unknown> & { type: string } };
  clone: (def: unknown, params?: { parent: boolean }) => z.ZodType;
};

const hardenString = (schema: z.ZodString): z.ZodType => {
  let out: z.ZodString = schema;
  if (schema.maxLength === null || schema.maxLength > MAX_TEXT_LENGTH) {
    out = out.max(MAX_TEXT_LENGTH, 'invalid_value');
  }
  return out.refine(isSafeText, 'invalid_value');
};

const hardenNumber = (schema: z.ZodNumber): z.ZodType => {
  if (!schema.isInt || wide.has(schema)) return schema;
  let out = schema;
  if (schema.minValue === null || schema.minValue < INT4_MIN)
    out = out.min(INT4_MIN, 'invalid_value');
  if (schema.maxValue === null || schema.maxValue > INT4_MAX)
    out = out.max(INT4_MAX, 'invalid_value');
  return out;
};

/** Child schemas of a definition by field, for the kinds that hold other schemas. */
const CHILD_FIELDS: Record<string, readonly string[]> = {
  array: ['element'],
  optional: ['innerType'],
  nullable: ['innerType'],
  default: ['innerType'],
  prefault: ['innerType'],
  catch: ['innerType'],
  readonly: ['innerType'],
  nonoptional: ['innerType'],
  success: ['innerType'],
  pipe: ['in', 'out'],
  record: ['keyType', 'valueType'],
  intersection: ['left', 'right'],
  set: ['valueType'],
  map: ['keyType', 'valueType'],
};

const walk = (schema: z.ZodType, seen: Map<z.ZodType, z.ZodType>): z.ZodType => {
  if (hardened.has(schema)) return schema;
  const known = seen.get(schema);
  if (known) return known;
  const s = schema as AnySchema;
  const def = s._zod.def;
  let out: z.ZodType = schema;
  switch (def.type as string) {
    case 'string':
      out = hardenString(schema as z.ZodString);
      break;
    case 'number':
      out = hardenNumber(schema as z.ZodNumber);
      break;
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const next: Record<string, z.ZodType> = {};
      for (const [key, value] of Object.entries(shape)) next[key] = walk(value, seen);
      const catchall = def.catchall as z.ZodType | undefined;
      out = s.clone(
        { ...def, shape: next, ...(catchall ? { catchall: walk(catchall, seen) } : {}) },
        { parent: true },
      );
      break;
    }
    case 'union':
      out = s.clone(
        { ...def, options: (def.options as z.ZodType[]).map((o) => walk(o, seen)) },
        { parent: true },
      );
      break;
    case 'tuple':
      out = s.clone(
        {
          ...def,
          items: (def.items as z.ZodType[]).map((o) => walk(o, seen)),
          ...(def.rest ? { rest: walk(def.rest as z.ZodType, seen) } : {}),
        },
        { parent: true },
      );
      break;
    case 'lazy': {
      const getter = def.getter as () => z.ZodType;
      let inner: z.ZodType | undefined;
      out = s.clone(
        {
          ...def,
          getter: () => {
            inner ??= walk(getter(), seen);
            return inner;
          },
        },
        { parent: true },
      );
      break;
    }
    default: {
      const fields = CHILD_FIELDS[def.type];
      if (fields) {
        const next: Record<string, unknown> = { ...def };
        for (const field of fields) {
          const child = def[field] as z.ZodType | undefined;
          if (child) next[field] = walk(child, seen);
        }
        out = s.clone(next, { parent: true });
      }
    }
  }
  seen.set(schema, out);
  hardened.add(out);
  return out;
};

/** Applies the input rule to every string and integer reachable in `schema` (a new schema). */
export const hardenInput = <T extends z.ZodType>(schema: T): T => walk(schema, new Map()) as T;

/** Schema kinds the walker does not look into (true leaves); the shared test keeps this honest. */
export const LEAF_KINDS = new Set([
  'string',
  'number',
  'boolean',
  'literal',
  'enum',
  'null',
  'undefined',
  'unknown',
  'any',
  'transform',
  'custom',
  'never',
  'void',
  'date',
  'nan',
  'bigint',
  'file',
  'template_literal',
]);
export const WALKED_KINDS = new Set([
  'object',
  'union',
  'tuple',
  'lazy',
  ...Object.keys(CHILD_FIELDS),
]);
