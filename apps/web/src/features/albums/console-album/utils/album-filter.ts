/**
 * The console album's filter, kept in the URL hash (albums spec §2.2) so a filtered album can be
 * bookmarked, reloaded and shared. Pure functions only: parse, format, resolve dates, and map to
 * the photo list call.
 *
 * Hash keys: `v` visible, `o` original, `c` curatable, `cd` curated, `p` printable, `pd` printed
 * (each `1` or `0`; `true`/`false` are read too; absent = either), `ai` attendee id, `fn` part of
 * the file name; then either `d1`/`d2` (custom range) or `rangeLabel` (`Last<N>Days`,
 * `Last<N>Hours`).
 *
 * Decisions the spec leaves open:
 * - A recognised `rangeLabel` wins over `d1`/`d2`: a named range is relative to now, so a link
 *   saved last week still means "the last 7 days" today; `d1`/`d2` beside it are a stale snapshot.
 *   An unrecognised label (e.g. the legacy `Custom Range`) is ignored and `d1`/`d2` apply.
 * - `d1` and `d2` are instants in UTC: ISO 8601 (`2026-05-01T09:30Z`, seconds optional),
 *   `YYYY-MM-DD HH:mm` (the spec's date format, read as UTC) or `YYYY-MM-DD` (midnight UTC).
 *   We write `YYYY-MM-DDTHH:mmZ`. Either may stand alone (open range); a range that ends before
 *   it starts is dropped.
 * - `Last<N>Days` / `Last<N>Hours` are rolling windows ending now (N from 1 to 9999): the list
 *   call gets only the start, so photos arriving while the page is open still match.
 * - Unknown keys are ignored; invalid values are dropped, each on its own.
 */

export type Flag = 0 | 1;

export const FLAG_KEYS = {
  visible: 'v',
  original: 'o',
  curatable: 'c',
  curated: 'cd',
  printable: 'p',
  printed: 'pd',
} as const;
export type FlagName = keyof typeof FLAG_KEYS;
export const FLAG_NAMES = Object.keys(FLAG_KEYS) as FlagName[];

export type NamedRangeUnit = 'days' | 'hours';

export type DateRange =
  | { readonly kind: 'named'; readonly amount: number; readonly unit: NamedRangeUnit }
  | { readonly kind: 'custom'; readonly from?: string; readonly to?: string };

export type AlbumFilter = Partial<Record<FlagName, Flag>> & {
  readonly attendeeUid?: string;
  readonly fileName?: string;
  readonly range?: DateRange;
};

const MAX_TEXT = 255;
const MAX_ATTENDEE_ID = 100;
const MAX_NAMED_AMOUNT = 9999;

const FLAG_VALUES = new Map<string, Flag>([
  ['1', 1],
  ['true', 1],
  ['0', 0],
  ['false', 0],
]);

const parseFlag = (value: string | null): Flag | undefined =>
  value === null ? undefined : FLAG_VALUES.get(value.trim().toLowerCase());

const parseText = (value: string | null, max: number): string | undefined => {
  const text = value?.trim();
  return text && text.length <= max ? text : undefined;
};

const NAMED_RANGE = /^Last(\d{1,4})(Days|Hours)$/;

/** `Last7Days` → 7 days; anything else → undefined. */
export const parseRangeLabel = (label: string | null): DateRange | undefined => {
  const match = NAMED_RANGE.exec(label?.trim() ?? '');
  if (!match) return undefined;
  const amount = Number(match[1]);
  if (amount < 1 || amount > MAX_NAMED_AMOUNT) return undefined;
  return { kind: 'named', amount, unit: match[2] === 'Days' ? 'days' : 'hours' };
};

export const formatRangeLabel = (amount: number, unit: NamedRangeUnit): string =>
  `Last${amount}${unit === 'days' ? 'Days' : 'Hours'}`;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z)?$/;

/** A hash date as an ISO instant (UTC), or undefined. */
export const parseHashDate = (value: string | null): string | undefined => {
  const text = value?.trim() ?? '';
  const parts = DATE_ONLY.exec(text) ?? DATE_TIME.exec(text);
  if (!parts) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(parts[i] ?? 0),
  ) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Reject 2026-02-30 and 25:00, which Date.UTC would roll over into other valid instants.
  const same =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return same ? date.toISOString() : undefined;
};

/** An ISO instant as written in the hash: `YYYY-MM-DDTHH:mmZ` (seconds only when not zero). */
export const formatHashDate = (iso: string): string => {
  const full = new Date(iso).toISOString();
  const seconds = full.slice(17, 19);
  return seconds === '00' ? `${full.slice(0, 16)}Z` : `${full.slice(0, 19)}Z`;
};

/** The filter a hash (with or without its `#`) describes. */
export const parseAlbumHash = (hash: string): AlbumFilter => {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const filter: {
    -readonly [K in keyof AlbumFilter]: AlbumFilter[K];
  } = {};
  for (const name of FLAG_NAMES) {
    const flag = parseFlag(params.get(FLAG_KEYS[name]));
    if (flag !== undefined) filter[name] = flag;
  }
  const attendeeUid = parseText(params.get('ai'), MAX_ATTENDEE_ID);
  if (attendeeUid !== undefined) filter.attendeeUid = attendeeUid;
  const fileName = parseText(params.get('fn'), MAX_TEXT);
  if (fileName !== undefined) filter.fileName = fileName;

  const named = parseRangeLabel(params.get('rangeLabel'));
  if (named) filter.range = named;
  else {
    const from = parseHashDate(params.get('d1'));
    const to = parseHashDate(params.get('d2'));
    const ordered = !from || !to || from <= to;
    if ((from || to) && ordered) {
      filter.range = { kind: 'custom', ...(from ? { from } : {}), ...(to ? { to } : {}) };
    }
  }
  return filter;
};

/** The hash for a filter, without `#`; keys in the spec's order; empty for no filter. */
export const formatAlbumHash = (filter: AlbumFilter): string => {
  const params = new URLSearchParams();
  for (const name of FLAG_NAMES) {
    const flag = filter[name];
    if (flag !== undefined) params.set(FLAG_KEYS[name], String(flag));
  }
  if (filter.attendeeUid?.trim()) params.set('ai', filter.attendeeUid.trim());
  if (filter.fileName?.trim()) params.set('fn', filter.fileName.trim());
  const range = filter.range;
  if (range?.kind === 'named') params.set('rangeLabel', formatRangeLabel(range.amount, range.unit));
  if (range?.kind === 'custom') {
    if (range.from) params.set('d1', formatHashDate(range.from));
    if (range.to) params.set('d2', formatHashDate(range.to));
  }
  // URLSearchParams writes spaces as `+`; %20 reads the same and survives every URL handler.
  return params.toString().replace(/\+/g, '%20');
};

/** Start and end (ISO) of the filter's range at `now`; named ranges end at `now`. */
export const resolveDateRange = (
  range: DateRange | undefined,
  now: Date,
): { start?: string; end?: string } => {
  if (!range) return {};
  if (range.kind === 'custom') {
    return { ...(range.from ? { start: range.from } : {}), ...(range.to ? { end: range.to } : {}) };
  }
  const unitMs = range.unit === 'days' ? 86_400_000 : 3_600_000;
  return {
    start: new Date(now.getTime() - range.amount * unitMs).toISOString(),
    end: now.toISOString(),
  };
};

/** The filter fields of the photo list call (ownerPhotoList); named ranges send only the start. */
export interface PhotoListFilterFields {
  is_visible?: Flag;
  is_original?: Flag;
  is_curatable?: Flag;
  is_curated?: Flag;
  printable?: Flag;
  printed?: Flag;
  attendee_uid?: string;
  file_name?: string;
  start_date?: string;
  end_date?: string;
}

const LIST_FIELDS = {
  visible: 'is_visible',
  original: 'is_original',
  curatable: 'is_curatable',
  curated: 'is_curated',
  printable: 'printable',
  printed: 'printed',
} as const satisfies Record<FlagName, keyof PhotoListFilterFields>;

export const toPhotoListFields = (filter: AlbumFilter, now: Date): PhotoListFilterFields => {
  const fields: PhotoListFilterFields = {};
  for (const name of FLAG_NAMES) {
    const flag = filter[name];
    if (flag !== undefined) fields[LIST_FIELDS[name]] = flag;
  }
  if (filter.attendeeUid) fields.attendee_uid = filter.attendeeUid;
  if (filter.fileName) fields.file_name = filter.fileName;
  const { start, end } = resolveDateRange(filter.range, now);
  if (start) fields.start_date = start;
  if (end && filter.range?.kind === 'custom') fields.end_date = end;
  return fields;
};

/** Named ranges the filter bar offers; any other `Last<N>…` from a link is shown as itself. */
export const RANGE_PRESETS = [
  { amount: 1, unit: 'hours' },
  { amount: 24, unit: 'hours' },
  { amount: 7, unit: 'days' },
  { amount: 30, unit: 'days' },
] as const satisfies readonly { amount: number; unit: NamedRangeUnit }[];
