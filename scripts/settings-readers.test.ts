// The settings audit (settings-readers.mjs): every key of the event settings schema is read at run
// time by a file outside the editor, the contract and the tests, or is a known stub on STUB_KEYS
// (a list that may only shrink).
import { describe, expect, it } from 'vitest';
import {
  eventOptsSchema,
  eventSettingsShape,
  leadParamsSchema,
  notificationDataSchema,
  shopifyShippingAddressSchema,
} from '../packages/shared/src/api/events/event-settings.ts';
import {
  auditProblems,
  CARRIED_BY,
  isReaderFile,
  namesUsed,
  readsKey,
  settingKeys,
  settingReaders,
  STUB_KEYS,
} from './settings-readers.mjs';

/** Whether a file with this text reads the key. */
const reads = (key: string, code: string, fileName = 'apps/server/src/x.ts') =>
  readsKey(key, namesUsed(fileName, code));

describe('the keys', () => {
  it('are the keys of the settings schema, nested objects by their keys', () => {
    const nested = {
      opts: eventOptsSchema.shape,
      notification_data: notificationDataSchema.shape,
      lead_params: leadParamsSchema.shape,
      shopify_shipping_address: shopifyShippingAddressSchema.shape,
    };
    const expected = Object.keys(eventSettingsShape).flatMap((key) =>
      key in nested
        ? Object.keys(nested[key as keyof typeof nested]).map((k) => `${key}.${k}`)
        : [key],
    );
    expect(settingKeys()).toEqual(expected);
    expect(expected).toContain('opts.photoDelayTags');
    expect(expected).toContain('sharing_body_template');
  });
});

describe('what counts as a read', () => {
  it('a property access, optional or by index, and a destructuring', () => {
    expect(reads('opts.photoDelayTags', 'const t = event.row.opts.photoDelayTags;')).toBe(true);
    expect(reads('opts.photoDelayTags', 'f(event?.opts?.photoDelayTags);')).toBe(true);
    expect(reads('opts.photoDelayTags', "f(opts['photoDelayTags']);")).toBe(true);
    expect(reads('opts.photoDelayTags', 'const { photoDelayTags: t } = event.opts;')).toBe(true);
    expect(reads('sharing_body_template', 'x(event.row.sharing_body_template)')).toBe(true);
  });

  it('JSON read in SQL', () => {
    const code = "const c = sql`${events.opts}->>'enableAttendeeReminder' in ('1')`;";
    expect(reads('opts.enableAttendeeReminder', code)).toBe(true);
  });

  it('not a comment, nor a key named in a string (a list passed on)', () => {
    expect(reads('opts.emailEnds', '// opts.emailEnds is read here\nconst a = 1;')).toBe(false);
    expect(reads('opts.emailEnds', '/** uses `opts.emailEnds` */ const a = 1;')).toBe(false);
    expect(reads('opts.emailEnds', "const KEYS = ['emailEnds'] as const;")).toBe(false);
    expect(reads('opts.emailEnds', "throw new AppError('x', 'opts.emailEnds');")).toBe(false);
  });

  it('a plain word only through its parent, also through a local name', () => {
    expect(reads('opts.description', 'const d = item.description;')).toBe(false);
    expect(reads('opts.description', 'const d = event.row.opts.description;')).toBe(true);
    expect(reads('opts.description', 'const o = event.row.opts;\nconst d = o.description;')).toBe(
      true,
    );
    expect(reads('opts.description', 'const { description } = event.opts;')).toBe(true);
    expect(reads('notification_data.topics', 'const t = data.topics;')).toBe(false);
    expect(reads('notification_data.topics', 'const t = e.notification_data.topics;')).toBe(true);
  });

  it('reads in TSX files', () => {
    const code =
      'export const A = ({ e }) => <datalist>{e.opts.emailEnds.map((d) => d)}</datalist>;';
    expect(reads('opts.emailEnds', code, 'apps/web/src/guest/x.tsx')).toBe(true);
  });

  it('only in run-time files: not the editor, the contract, texts, tests or the save path', () => {
    expect(isReaderFile('apps/server/src/services/photos/photo-upload.service.ts')).toBe(true);
    expect(isReaderFile('apps/web/src/guest/features/album/components/album-view.tsx')).toBe(true);
    expect(isReaderFile('apps/web/src/features/events/list/event-list.tsx')).toBe(true);
    expect(isReaderFile('packages/shared/src/rules/stock-images.ts')).toBe(true);
    for (const file of [
      'apps/web/src/features/events/editor/components/photo-settings-tab.tsx',
      'packages/shared/src/api/events/event-settings.ts',
      'packages/shared/src/api/events/events.ts',
      'apps/web/src/i18n/en-events.ts',
      'apps/server/src/services/photos/photo-upload.service.test.ts',
      'apps/web/src/guest/features/album/components/album-view.test.tsx',
      'apps/server/src/services/events/event-rules.ts',
      'apps/server/src/db/schema.ts',
    ])
      expect(isReaderFile(file), file).toBe(false);
  });
});

describe('the audit', () => {
  const table = [
    { key: 'opts.a', readers: ['apps/server/src/a.ts'] },
    { key: 'opts.b', readers: [] },
    { key: 'opts.c', readers: [] },
  ];

  it('fails on a key only the editor touches unless it is a listed stub', () => {
    expect(auditProblems(table, { 'opts.b': 'x' })).toEqual([
      'opts.c: only the editor touches it (make it real, or list it in STUB_KEYS)',
    ]);
    expect(auditProblems(table, { 'opts.b': 'x', 'opts.c': 'y' })).toEqual([]);
  });

  it('fails on a listed stub that has become read, and on a listed key the schema lacks', () => {
    expect(auditProblems(table, { 'opts.a': 'x', 'opts.b': 'x', 'opts.c': 'x' })).toEqual([
      'opts.a: read by apps/server/src/a.ts; take it off STUB_KEYS',
    ]);
    expect(auditProblems(table, { 'opts.b': 'x', 'opts.c': 'x', 'opts.gone': 'x' })).toEqual([
      'opts.gone: on STUB_KEYS but not a key of the settings schema',
    ]);
  });
});

describe('the repository', () => {
  const table = settingReaders();

  it('reads every setting at run time but the listed stubs, and no listed stub is read', () => {
    expect(auditProblems(table)).toEqual([]);
  });

  it('carries keys only by keys of the schema', () => {
    const keys = table.map((row) => row.key);
    for (const [key, carrier] of Object.entries(CARRIED_BY)) {
      expect(keys).toContain(key);
      expect(keys).toContain(carrier);
    }
    for (const key of Object.keys(STUB_KEYS)) expect(keys).toContain(key);
  });
});
