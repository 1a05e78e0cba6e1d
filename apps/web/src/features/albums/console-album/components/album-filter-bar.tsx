import { useState } from 'react';
import {
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import {
  FLAG_NAMES,
  formatRangeLabel,
  parseRangeLabel,
  RANGE_PRESETS,
  type AlbumFilter,
  type DateRange,
  type Flag,
  type FlagName,
} from '../utils/album-filter.ts';

const ANY = 'any';
const CUSTOM = 'custom';
const TYPING_PAUSE_MS = 400;

/** An ISO instant as the value of a datetime-local input (the operator's local time). */
const toLocalInput = (iso: string | undefined): string => {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
};

/** A datetime-local value (local time) as an ISO instant; blank or invalid → undefined. */
const fromLocalInput = (value: string): string | undefined => {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};

/**
 * A text filter typed into a field: the hash follows after a short pause, and a hash changed from
 * elsewhere (back button, a pasted link) shows in the field.
 */
function TextFilter({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: string | undefined;
  onCommit: (value: string) => void;
}) {
  const [draft, setDraft] = useState(value ?? '');
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(value ?? '');
  }
  const commit = useDebouncedCallback(onCommit, TYPING_PAUSE_MS);
  return (
    <TextInput
      label={label}
      value={draft}
      onChange={(event) => {
        setDraft(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onCommit(event.currentTarget.value);
      }}
      w={200}
    />
  );
}

export function AlbumFilterBar({
  filter,
  onChange,
}: {
  filter: AlbumFilter;
  onChange: (filter: AlbumFilter) => void;
}) {
  const { t } = useTranslation();
  const set = (patch: Partial<AlbumFilter>) => {
    const next: Record<string, unknown> = { ...filter, ...patch };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    onChange(next);
  };

  const flagOptions = [
    { value: ANY, label: t('album.filter.any') },
    { value: '1', label: t('album.filter.yes') },
    { value: '0', label: t('album.filter.no') },
  ];

  const range = filter.range;
  // "Custom range" before both dates are set has nothing to write in the hash yet.
  const [pickingCustom, setPickingCustom] = useState(false);
  const showCustom = range?.kind === 'custom' || (pickingCustom && !range);
  const rangeValue =
    range?.kind === 'named'
      ? formatRangeLabel(range.amount, range.unit)
      : showCustom
        ? CUSTOM
        : ANY;
  const rangeText = (amount: number, unit: 'days' | 'hours') =>
    unit === 'days'
      ? t('album.filter.lastDays', { count: amount })
      : t('album.filter.lastHours', { count: amount });
  const presets = RANGE_PRESETS.map((preset) => ({
    value: formatRangeLabel(preset.amount, preset.unit),
    label: rangeText(preset.amount, preset.unit),
  }));
  // A named range from a link that is not one of ours is offered as itself.
  if (range?.kind === 'named' && !presets.some((preset) => preset.value === rangeValue))
    presets.push({ value: rangeValue, label: rangeText(range.amount, range.unit) });
  const rangeOptions = [
    { value: ANY, label: t('album.filter.anyTime') },
    ...presets,
    { value: CUSTOM, label: t('album.filter.custom') },
  ];

  const chooseRange = (value: string | null) => {
    setPickingCustom(value === CUSTOM);
    if (value === CUSTOM) return;
    set({ range: value && value !== ANY ? parseRangeLabel(value) : undefined });
  };
  const setCustom = (patch: { from?: string; to?: string }) => {
    const current = range?.kind === 'custom' ? range : { kind: 'custom' as const };
    const next: DateRange = { ...current, ...patch };
    set({ range: next });
  };

  return (
    <Card withBorder component="section" aria-label={t('album.filter.title')} padding="sm">
      <Stack gap="sm">
        <Group gap="md" align="flex-end" wrap="wrap">
          {FLAG_NAMES.map((name: FlagName) => (
            <Stack gap={4} key={name}>
              <Text size="sm" fw={500} id={`album-filter-${name}`}>
                {t(`album.filter.${name}`)}
              </Text>
              <SegmentedControl
                size="xs"
                aria-labelledby={`album-filter-${name}`}
                data={flagOptions}
                value={filter[name] === undefined ? ANY : String(filter[name])}
                onChange={(value) =>
                  set({ [name]: value === ANY ? undefined : (Number(value) as Flag) })
                }
              />
            </Stack>
          ))}
        </Group>
        <Group gap="md" align="flex-end" wrap="wrap">
          <TextFilter
            label={t('album.filter.fileName')}
            value={filter.fileName}
            onCommit={(value) => set({ fileName: value.trim() || undefined })}
          />
          <TextFilter
            label={t('album.filter.attendeeUid')}
            value={filter.attendeeUid}
            onCommit={(value) => set({ attendeeUid: value.trim() || undefined })}
          />
          <Select
            label={t('album.filter.date')}
            data={rangeOptions}
            value={rangeValue}
            onChange={chooseRange}
            allowDeselect={false}
            w={180}
          />
          {showCustom && (
            <>
              <TextInput
                type="datetime-local"
                label={t('album.filter.from')}
                value={toLocalInput(range?.kind === 'custom' ? range.from : undefined)}
                onChange={(event) => setCustom({ from: fromLocalInput(event.currentTarget.value) })}
              />
              <TextInput
                type="datetime-local"
                label={t('album.filter.to')}
                value={toLocalInput(range?.kind === 'custom' ? range.to : undefined)}
                onChange={(event) => setCustom({ to: fromLocalInput(event.currentTarget.value) })}
              />
            </>
          )}
          <Button
            variant="subtle"
            onClick={() => {
              setPickingCustom(false);
              onChange({});
            }}
          >
            {t('album.filter.clear')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
