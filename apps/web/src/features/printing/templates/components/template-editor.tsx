import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Select,
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
} from '../api/templates-api.ts';
import { useTemplateLayout } from '../hooks/use-template-layout.ts';
import { isTemplateImageName } from '../utils/template-geometry.ts';
import { SheetCanvas, type TemplateImageUrls } from './sheet-canvas.tsx';
import {
  PlaceholdersPanel,
  SheetSizePanel,
  TemplateImagesPanel,
  TemplateTextsPanel,
} from './template-panels.tsx';

const NO_IMAGES: TemplateImageUrls = { background_image: null, overlay_image: null };

/** The navigation from a new template to its own address, right after it was created. */
type SavedNavigation = { savedTemplateId: number };
type ImageSlot = keyof TemplateImageUrls;

/**
 * The template editor: name, owner (super users: public or an organisation), the sheet canvas
 * and its panels (sheet, placeholders, images, texts); saving a new template opens it by its
 * tid, with the "saved" notice until the next change.
 */
export function TemplateEditor({
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
  const editing = useTemplateLayout(detail?.layout ?? defaultTemplateLayout());
  const { layout, selected, setSelected, change, setPlaceholder } = editing;
  const [imageUrls, setImageUrls] = useState<TemplateImageUrls>(detail?.image_urls ?? NO_IMAGES);
  const [isPublic, setIsPublic] = useState(false);
  const [organisationId, setOrganisationId] = useState<number | null>(
    detail?.organisation_id ?? user.organisation_id,
  );
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
      await queryClient.invalidateQueries({ queryKey: ['print-templates'] });
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
          <SheetSizePanel layout={layout} change={change} px={px} />
          <PlaceholdersPanel editing={editing} />
          <TemplateImagesPanel
            layout={layout}
            busy={busy}
            upload={upload}
            removeImage={removeImage}
          />
          <TemplateTextsPanel layout={layout} change={change} />
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
