import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  ColorInput,
  FileButton,
  Group,
  Loader,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import {
  defaultTemplateLayout,
  layoutPixels,
  Role,
  type PptDetail,
  type TemplateLayout,
  type TemplatePlaceholder,
  type User,
} from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  createTemplate,
  templateQueryKey,
  updateTemplate,
  uploadTemplateImage,
  useOrganisationChoices,
  useTemplate,
} from '../api/templates-api.ts';
import { isTemplateImageName, newPlaceholder, SHEET_PRESETS } from '../utils/template-geometry.ts';
import { SheetCanvas, type TemplateImageUrls } from './sheet-canvas.tsx';

const NO_IMAGES: TemplateImageUrls = { background_image: null, overlay_image: null };

/** The navigation from a new template to its own address, right after it was created. */
type SavedNavigation = { savedTemplateId: number };
type ImageSlot = keyof TemplateImageUrls;

/** A number input over a fraction (0..1) shown in percent. */
function PercentInput({
  label,
  value,
  onChange,
  min = 0,
  max = 100,
}: {
  label: string;
  value: number;
  onChange: (fraction: number) => void;
  min?: number;
  max?: number;
}) {
  return (
    <NumberInput
      size="xs"
      label={label}
      value={Math.round(value * 1000) / 10}
      min={min}
      max={max}
      step={1}
      decimalScale={1}
      suffix="%"
      onChange={(v) => typeof v === 'number' && onChange(v / 100)}
    />
  );
}

/**
 * The template page (albums spec §2.6): `templates/?watermark=1` makes a watermark
 * template, `templates/` a print template, `templates/?tid={id}` edits one and
 * `templates/?tid={id}&mode=preview` shows it. Public templates are offered to super users only;
 * the server enforces the same.
 */
export default function TemplatesPage({ user }: { user: User }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const tidParam = Number(params.get('tid'));
  const tid = Number.isInteger(tidParam) && tidParam > 0 ? tidParam : null;
  const existing = useTemplate(tid);
  const errorText = useErrorText();

  if (tid !== null && existing.isPending) return <Loader aria-label={t('app.loading')} />;
  if (tid !== null && existing.isError)
    return (
      <Alert color="red" role="alert">
        {errorText(errorKeyOf(existing.error))}
      </Alert>
    );
  const detail = existing.data ?? null;
  if (params.get('mode') === 'preview' && detail) return <TemplatePreview detail={detail} />;
  return (
    <TemplateEditor
      key={detail?.id ?? 'new'}
      user={user}
      detail={detail}
      watermark={detail ? detail.is_watermark : params.get('watermark') === '1'}
    />
  );
}

function TemplatePreview({ detail }: { detail: PptDetail }) {
  const { t } = useTranslation();
  const px = layoutPixels(detail.layout);
  return (
    <Stack gap="md" align="flex-start">
      <Title order={2}>{t('templates.previewTitle', { name: detail.name })}</Title>
      <Text c="dimmed" size="sm">
        {t('templates.sheetSummary', {
          width: String(detail.layout.width),
          height: String(detail.layout.height),
          unit: detail.layout.unit,
          dpi: String(detail.layout.dpi),
          px: `${px.width} × ${px.height}`,
          n: String(detail.layout.placeholders.length),
        })}
      </Text>
      <SheetCanvas layout={detail.layout} imageUrls={detail.image_urls} maxWidth={720} />
    </Stack>
  );
}

function TemplateEditor({
  user,
  detail,
  watermark,
}: {
  user: User;
  detail: PptDetail | null;
  watermark: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [, setParams] = useSearchParams();
  const location = useLocation();
  const isSuper = user.role === Role.SUPER_USER;
  const [name, setName] = useState(detail?.name ?? '');
  const [layout, setLayout] = useState<TemplateLayout>(detail?.layout ?? defaultTemplateLayout());
  const [imageUrls, setImageUrls] = useState<TemplateImageUrls>(detail?.image_urls ?? NO_IMAGES);
  const [isPublic, setIsPublic] = useState(false);
  const [organisationId, setOrganisationId] = useState<number | null>(
    detail?.organisation_id ?? user.organisation_id,
  );
  const [selected, setSelected] = useState<number>(0);
  const [busy, setBusy] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  // What was last saved: the "saved" notice shows until the next change. A new template, once
  // created, opens by its tid in a fresh editor: the navigation says it was just saved.
  const [savedState, setSavedState] = useState<{ name: string; layout: TemplateLayout } | null>(
    () =>
      detail && (location.state as SavedNavigation | null)?.savedTemplateId === detail.id
        ? { name: detail.name, layout: detail.layout }
        : null,
  );
  const saved = savedState?.name === name && savedState.layout === layout;
  const organisations = useOrganisationChoices(isSuper);
  const px = layoutPixels(layout);
  const current = layout.placeholders[selected] ?? null;

  const change = (patch: Partial<TemplateLayout>) => setLayout((l) => ({ ...l, ...patch }));
  const setPlaceholder = (index: number, p: TemplatePlaceholder) =>
    setLayout((l) => ({
      ...l,
      placeholders: l.placeholders.map((old, i) => (i === index ? p : old)),
    }));
  const addPlaceholder = () => {
    setLayout((l) => ({
      ...l,
      placeholders: [...l.placeholders, newPlaceholder(l.placeholders.length)],
    }));
    setSelected(layout.placeholders.length);
  };
  const removePlaceholder = () => {
    if (layout.placeholders.length <= 1) return;
    setLayout((l) => ({ ...l, placeholders: l.placeholders.filter((_, i) => i !== selected) }));
    setSelected(0);
  };
  const splitEvenly = (count: number) => {
    const columns = count;
    change({
      placeholders: Array.from({ length: count }, (_, i) => ({
        x: Math.round((i / columns + 0.02 / columns) * 10_000) / 10_000,
        y: 0.04,
        width: Math.round((0.96 / columns) * 10_000) / 10_000,
        height: 0.92,
        rotation: 0,
      })),
    });
    setSelected(0);
  };

  // Images go to the template's organisation's watermarks/ folder (super users: the one chosen).
  const imageOrganisation = isSuper ? (organisationId ?? undefined) : undefined;
  const upload = async (slot: ImageSlot, file: File | null) => {
    if (!file) return;
    if (!isTemplateImageName(file.name)) {
      setErrorKey('template_image_invalid');
      return;
    }
    setBusy(true);
    setErrorKey(null);
    try {
      const stored = await uploadTemplateImage(file, imageOrganisation);
      change({ [slot]: stored.key });
      setImageUrls((urls) => ({ ...urls, [slot]: stored.url }));
    } catch (error) {
      setErrorKey(errorKeyOf(error));
    } finally {
      setBusy(false);
    }
  };
  const removeImage = (slot: ImageSlot) => {
    change({ [slot]: null });
    setImageUrls((urls) => ({ ...urls, [slot]: null }));
  };

  const save = async () => {
    setBusy(true);
    setErrorKey(null);
    try {
      const result = detail
        ? await updateTemplate(detail.id, name, layout)
        : await createTemplate({
            name,
            layout,
            is_watermark: watermark,
            is_public: isPublic,
            ...(isSuper && !isPublic && organisationId !== null
              ? { organisation_id: organisationId }
              : {}),
          });
      queryClient.setQueryData(templateQueryKey(result.id), result);
      await queryClient.invalidateQueries({ queryKey: ['ppt'] });
      setSavedState({ name, layout });
      if (!detail)
        setParams(
          { tid: String(result.id), ...(watermark ? { watermark: '1' } : {}) },
          { state: { savedTemplateId: result.id } satisfies SavedNavigation },
        );
    } catch (error) {
      setErrorKey(errorKeyOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={2}>
          {t(
            detail
              ? 'templates.editTitle'
              : watermark
                ? 'templates.newWatermarkTitle'
                : 'templates.newPrintTitle',
          )}
        </Title>
        {detail ? (
          <Anchor href={`/templates/?tid=${detail.id}&mode=preview`} target="_blank" rel="noopener">
            {t('templates.preview')}
          </Anchor>
        ) : null}
      </Group>
      {errorKey ? (
        <Alert color="red" role="alert" withCloseButton onClose={() => setErrorKey(null)}>
          {errorText(errorKey)}
        </Alert>
      ) : null}
      {saved ? (
        <Alert color="green" role="status">
          {t('templates.saved')}
        </Alert>
      ) : null}
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Stack gap="xs" style={{ flex: '1 1 480px', minWidth: 300 }}>
          <SheetCanvas
            layout={layout}
            imageUrls={imageUrls}
            maxWidth={640}
            selected={selected}
            onSelect={setSelected}
            onChange={setPlaceholder}
          />
          <Text size="xs" c="dimmed">
            {t('templates.dragHint')}
          </Text>
        </Stack>
        <Stack gap="sm" style={{ flex: '1 1 340px', maxWidth: 460 }}>
          <TextInput
            label={t('templates.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            maxLength={100}
          />
          {!detail && isSuper ? (
            <Checkbox
              label={t('templates.public')}
              checked={isPublic}
              onChange={(e) => setIsPublic(e.currentTarget.checked)}
            />
          ) : null}
          {!detail && isSuper ? (
            <Select
              label={t('templates.organisation')}
              description={t('templates.organisationHint')}
              data={(organisations.data ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
              value={organisationId === null ? null : String(organisationId)}
              onChange={(v) => setOrganisationId(v === null ? null : Number(v))}
            />
          ) : null}
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
                    (p) =>
                      layout.unit === 'in' &&
                      p.width === layout.width &&
                      p.height === layout.height,
                  )?.label ?? null
                }
                onChange={(label) => {
                  const preset = SHEET_PRESETS.find((p) => p.label === label);
                  if (preset) change({ width: preset.width, height: preset.height, unit: 'in' });
                }}
              />
              <SimpleGrid cols={3} spacing="xs">
                <NumberInput
                  size="xs"
                  label={t('templates.width')}
                  value={layout.width}
                  min={0.1}
                  decimalScale={2}
                  onChange={(v) => typeof v === 'number' && change({ width: v })}
                />
                <NumberInput
                  size="xs"
                  label={t('templates.height')}
                  value={layout.height}
                  min={0.1}
                  decimalScale={2}
                  onChange={(v) => typeof v === 'number' && change({ height: v })}
                />
                <NumberInput
                  size="xs"
                  label={t('templates.dpi')}
                  value={layout.dpi}
                  min={72}
                  max={1200}
                  allowDecimal={false}
                  onChange={(v) => typeof v === 'number' && change({ dpi: v })}
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
                  <NumberInput
                    size="xs"
                    label={t('templates.rotation')}
                    value={current.rotation}
                    min={-360}
                    max={360}
                    suffix="°"
                    onChange={(v) =>
                      typeof v === 'number' && setPlaceholder(selected, { ...current, rotation: v })
                    }
                  />
                </SimpleGrid>
              ) : null}
            </Stack>
          </Paper>
          <Paper withBorder p="sm">
            <Stack gap="xs">
              <Text fw={600} size="sm">
                {t('templates.images')}
              </Text>
              {(['background_image', 'overlay_image'] as const).map((slot) => (
                <Group key={slot} gap="xs" justify="space-between">
                  <Text size="sm">{t(`templates.${slot}`)}</Text>
                  <Group gap={4}>
                    <FileButton
                      accept="image/png,image/jpeg"
                      onChange={(f) => void upload(slot, f)}
                    >
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
                        onClick={() =>
                          change({ texts: layout.texts.filter((_, i) => i !== index) })
                        }
                      >
                        ×
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
                  </Stack>
                );
              })}
            </Stack>
          </Paper>
          <Group>
            <Button onClick={() => void save()} loading={busy} disabled={name.trim() === ''}>
              {t('templates.save')}
            </Button>
          </Group>
        </Stack>
      </Group>
    </Stack>
  );
}
