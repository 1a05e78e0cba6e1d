import {
  ActionIcon,
  Button,
  ColorInput,
  FileButton,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_TEXT_SLOTS, type TemplateLayout } from '@flashbulb/shared';
import { SHEET_PRESETS } from '../utils/template-geometry.ts';
import type { TemplateLayoutEditing } from '../hooks/use-template-layout.ts';
import { LayoutNumberInput } from './layout-number-input.tsx';
import { PercentInput } from './percent-input.tsx';
import { Icon } from '../../../../design/icons.tsx';
import { icon } from '../../../../design/tokens.ts';
import type { TemplateImageUrls } from './sheet-canvas.tsx';

/** The sheet: a paper preset or its own width, height, unit and DPI, and its size in pixels. */
export function SheetSizePanel({
  layout,
  change,
  px,
}: {
  layout: TemplateLayout;
  change: (patch: Partial<TemplateLayout>) => void;
  px: { width: number; height: number };
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('templates.sheet')}
        </Text>
        <Select
          size="xs"
          label={t('templates.preset')}
          placeholder={t('templates.custom')}
          data={SHEET_PRESETS.map((p) => p.label)}
          value={
            SHEET_PRESETS.find(
              (p) => layout.unit === 'in' && p.width === layout.width && p.height === layout.height,
            )?.label ?? null
          }
          onChange={(label) => {
            const preset = SHEET_PRESETS.find((p) => p.label === label);
            if (preset) change({ width: preset.width, height: preset.height, unit: 'in' });
          }}
        />
        <SimpleGrid cols={3} spacing="xs">
          <LayoutNumberInput
            label={t('templates.width')}
            value={layout.width}
            min={0.1}
            decimalScale={2}
            onNumber={(width) => change({ width })}
          />
          <LayoutNumberInput
            label={t('templates.height')}
            value={layout.height}
            min={0.1}
            decimalScale={2}
            onNumber={(height) => change({ height })}
          />
          <LayoutNumberInput
            label={t('templates.dpi')}
            value={layout.dpi}
            min={72}
            max={1200}
            allowDecimal={false}
            onNumber={(dpi) => change({ dpi })}
          />
        </SimpleGrid>
        <SegmentedControl
          size="xs"
          value={layout.unit}
          onChange={(v) => change({ unit: v === 'mm' ? 'mm' : 'in' })}
          data={[
            { value: 'in', label: t('templates.inches') },
            { value: 'mm', label: t('templates.millimetres') },
          ]}
        />
        <Text size="xs" c="dimmed" data-testid="sheet-pixels">
          {t('templates.pixels', { px: `${px.width} × ${px.height}` })}
        </Text>
      </Stack>
    </Paper>
  );
}

/** The photo placeholders: two-up, add, remove the selected one, and its position in percent. */
export function PlaceholdersPanel({
  editing: {
    layout,
    selected,
    current,
    setPlaceholder,
    addPlaceholder,
    removePlaceholder,
    splitEvenly,
  },
}: {
  editing: TemplateLayoutEditing;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            {t('templates.placeholders', { n: String(layout.placeholders.length) })}
          </Text>
          <Group gap={4}>
            <Button size="compact-xs" variant="default" onClick={() => splitEvenly(2)}>
              {t('templates.twoUp')}
            </Button>
            <Button size="compact-xs" variant="default" onClick={addPlaceholder}>
              {t('templates.addPlaceholder')}
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              disabled={layout.placeholders.length <= 1}
              onClick={removePlaceholder}
            >
              {t('templates.removePlaceholder', { n: String(selected + 1) })}
            </Button>
          </Group>
        </Group>
        {current ? (
          <SimpleGrid cols={5} spacing={4}>
            <PercentInput
              label="X"
              value={current.x}
              onChange={(x) => setPlaceholder(selected, { ...current, x })}
            />
            <PercentInput
              label="Y"
              value={current.y}
              onChange={(y) => setPlaceholder(selected, { ...current, y })}
            />
            <PercentInput
              label={t('templates.w')}
              value={current.width}
              min={1}
              onChange={(width) => setPlaceholder(selected, { ...current, width })}
            />
            <PercentInput
              label={t('templates.h')}
              value={current.height}
              min={1}
              onChange={(height) => setPlaceholder(selected, { ...current, height })}
            />
            <LayoutNumberInput
              label={t('templates.rotation')}
              value={current.rotation}
              min={-360}
              max={360}
              suffix="°"
              onNumber={(rotation) => setPlaceholder(selected, { ...current, rotation })}
            />
          </SimpleGrid>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The background and overlay images: upload, replace or remove each. */
export function TemplateImagesPanel({
  layout,
  busy,
  upload,
  removeImage,
}: {
  layout: TemplateLayout;
  busy: boolean;
  upload: (slot: keyof TemplateImageUrls, file: File | null) => Promise<void>;
  removeImage: (slot: keyof TemplateImageUrls) => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('templates.images')}
        </Text>
        {(['background_image', 'overlay_image'] as const).map((slot) => (
          <Group key={slot} gap="xs" justify="space-between">
            <Text size="sm">{t(`templates.${slot}`)}</Text>
            <Group gap={4}>
              <FileButton accept="image/png,image/jpeg" onChange={(f) => void upload(slot, f)}>
                {(props) => (
                  <Button {...props} size="compact-xs" variant="default" loading={busy}>
                    {layout[slot] ? t('templates.replace') : t('templates.upload')}
                  </Button>
                )}
              </FileButton>
              {layout[slot] ? (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() => removeImage(slot)}
                >
                  {t('templates.remove')}
                </Button>
              ) : null}
            </Group>
          </Group>
        ))}
        <Text size="xs" c="dimmed">
          {t('templates.imagesHint')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** The texts printed on the sheet (up to ten): words, position, size and colour of each. */
export function TemplateTextsPanel({
  layout,
  change,
}: {
  layout: TemplateLayout;
  change: (patch: Partial<TemplateLayout>) => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            {t('templates.texts')}
          </Text>
          <Button
            size="compact-xs"
            variant="default"
            disabled={layout.texts.length >= 10}
            onClick={() =>
              change({
                texts: [
                  ...layout.texts,
                  {
                    text: t('templates.sampleText'),
                    x: 0.05,
                    y: 0.95,
                    size: 0.06,
                    color: '#000000',
                  },
                ],
              })
            }
          >
            {t('templates.addText')}
          </Button>
        </Group>
        {layout.texts.map((text, index) => {
          const setText = (patch: Partial<typeof text>) =>
            change({
              texts: layout.texts.map((o, i) => (i === index ? { ...o, ...patch } : o)),
            });
          return (
            <Stack key={index} gap={4}>
              <Group gap={4} wrap="nowrap">
                <TextInput
                  size="xs"
                  style={{ flex: 1 }}
                  aria-label={t('templates.textN', { n: String(index + 1) })}
                  value={text.text}
                  maxLength={200}
                  onChange={(e) => setText({ text: e.currentTarget.value })}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('templates.removeText', { n: String(index + 1) })}
                  onClick={() => change({ texts: layout.texts.filter((_, i) => i !== index) })}
                >
                  <Icon name="close" size={icon.console} />
                </ActionIcon>
              </Group>
              <SimpleGrid cols={4} spacing={4}>
                <PercentInput label="X" value={text.x} onChange={(x) => setText({ x })} />
                <PercentInput label="Y" value={text.y} onChange={(y) => setText({ y })} />
                <PercentInput
                  label={t('templates.size')}
                  value={text.size}
                  min={1}
                  max={50}
                  onChange={(size) => setText({ size })}
                />
                <ColorInput
                  size="xs"
                  label={t('templates.colour')}
                  value={text.color}
                  format="hex"
                  onChange={(color) => /^#[0-9a-fA-F]{6}$/.test(color) && setText({ color })}
                />
              </SimpleGrid>
              {/* A slot prints the event's print header or footer message (Printing tab). */}
              <NativeSelect
                size="xs"
                label={t('templates.slot')}
                value={text.slot ?? ''}
                data={[
                  { value: '', label: t('templates.slotNone') },
                  ...TEMPLATE_TEXT_SLOTS.map((slot) => ({
                    value: slot,
                    label: t(`templates.slotOf.${slot}`),
                  })),
                ]}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  const slot = TEMPLATE_TEXT_SLOTS.find((s) => s === value);
                  change({
                    texts: layout.texts.map((o, i) => {
                      if (i !== index) return o;
                      const { slot: _old, ...rest } = o;
                      return slot ? { ...rest, slot } : rest;
                    }),
                  });
                }}
              />
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}
