import { Button, Fieldset, Group, Radio, Stack } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useTemplates } from '../api/catalog-api.ts';
import { useEditorContext } from '../hooks/editor-context.ts';
import {
  DEFAULT_WATERMARK_IMAGE,
  type EventFormValues,
  type WatermarkMode,
} from '../utils/event-form-values.ts';
import { FlagCheckbox, IdSelect } from './form-fields.tsx';
import { ImageToggle } from './toggled-fields.tsx';
import {
  openInNewWindow,
  templateUrls,
  WatermarkTemplateTables,
} from './watermark-template-tables.tsx';

export function WatermarksTab() {
  const { t } = useTranslation();
  const { isAdmin, isSuper } = useEditorContext();
  const { control, setValue } = useFormContext<EventFormValues>();
  const mode = useWatch({ control, name: 'ui.watermarkMode' });
  const organisationId = useWatch({ control, name: 'organisation_id' });
  const templateId = useWatch({ control, name: 'watermark_pt_id' });
  // Owner-console §6: only admins and super users load the watermark template list.
  const templates = useTemplates(organisationId, true, isAdmin);
  const publicItems = templates.data?.public_ppt_list ?? [];
  const privateItems = templates.data?.private_ppt_list ?? [];
  const options = [...publicItems, ...privateItems].map((p) => ({ value: p.id, label: p.name }));
  const templateMode = mode === 'template';

  return (
    <Stack gap="sm">
      <ImageToggle
        name="live_view_watermark"
        checkboxLabel={t('events.watermarks.liveView')}
        label={t('events.watermarks.liveViewImage')}
        defaultImage={DEFAULT_WATERMARK_IMAGE}
        description={t('events.watermarks.imageHint')}
        uploadRoot="watermarks"
      />
      <FlagCheckbox name="opts.kioskWatermarkEnable" label={t('events.watermarks.kiosk')} />
      <Radio.Group
        name="ui.watermarkMode"
        label={t('events.watermarks.mode')}
        value={mode}
        onChange={(value) =>
          setValue('ui.watermarkMode', value as WatermarkMode, { shouldDirty: true })
        }
      >
        <Group mt={4}>
          <Radio value="template" label={t('events.watermarks.templateMode')} />
          <Radio value="image" label={t('events.watermarks.imageMode')} />
        </Group>
      </Radio.Group>
      <Fieldset
        legend={t('events.watermarks.templateMode')}
        disabled={!templateMode}
        data-testid="watermark-template-container"
      >
        <Stack gap="xs">
          <IdSelect
            name="watermark_pt_id"
            label={t('events.watermarks.template')}
            options={options}
            placeholder={t('events.printing.noneSelected')}
            disabled={!templateMode}
          />
          {isAdmin ? (
            <Group gap="xs">
              <Button variant="default" size="xs" onClick={() => openInNewWindow(templateUrls.add)}>
                {t('events.watermarks.add')}
              </Button>
              <Button
                variant="default"
                size="xs"
                disabled={templateId === null}
                onClick={() =>
                  templateId !== null && openInNewWindow(templateUrls.edit(templateId))
                }
              >
                {t('events.watermarks.editSelected')}
              </Button>
              <Button
                variant="default"
                size="xs"
                loading={templates.isFetching}
                onClick={() => void templates.refetch()}
              >
                {t('events.watermarks.refresh')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Fieldset>
      <Fieldset
        legend={t('events.watermarks.imageMode')}
        disabled={templateMode}
        data-testid="watermark-image-container"
      >
        <ImageToggle
          name="photo_watermark"
          checkboxLabel={t('events.watermarks.photo')}
          label={t('events.watermarks.photoImage')}
          defaultImage={DEFAULT_WATERMARK_IMAGE}
          description={t('events.watermarks.imageHint')}
          disabled={templateMode}
          uploadRoot="watermarks"
        />
      </Fieldset>
      {isAdmin ? (
        <WatermarkTemplateTables
          publicItems={publicItems}
          privateItems={privateItems}
          isSuper={isSuper}
          onChanged={() => void templates.refetch()}
        />
      ) : null}
    </Stack>
  );
}
