import { Checkbox, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PRINTER_POOL, EVENT_LIMITS } from '@flashbulb/shared';
import { useTemplates } from '../api/catalog-api.ts';
import { useEditorContext } from '../hooks/editor-context.ts';
import { AutoPrintProcesses } from './auto-print-processes.tsx';
import type { EventFormValues } from '../utils/event-form-values.ts';
import {
  FlagCheckbox,
  IdMultiSelect,
  ListField,
  NumberField,
  splitListInput,
  TextAreaFields,
  TextField,
  joinList,
} from './form-fields.tsx';
import { SectionTitle } from './toggled-fields.tsx';

/** Stories: look for tags in photos, optionally creating a story for a print pool. */
function LookForTags() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<EventFormValues>();
  const value = useWatch({ control, name: 'opts.lookForTagsInImages' });
  const dirty = { shouldDirty: true } as const;
  return (
    <Stack gap={4}>
      <Checkbox
        name="opts.lookForTagsInImages"
        label={t('events.printing.lookForTags')}
        checked={value !== null}
        onChange={(e) =>
          setValue(
            'opts.lookForTagsInImages',
            e.currentTarget.checked ? { tags: [], action: null } : null,
            dirty,
          )
        }
      />
      {value ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('events.printing.lookForTagsList')}
            placeholder={t('events.stock.tagsPlaceholder')}
            defaultValue={joinList(value.tags)}
            onChange={(e) =>
              setValue(
                'opts.lookForTagsInImages',
                { ...value, tags: splitListInput(e.currentTarget.value) },
                dirty,
              )
            }
          />
          <Checkbox
            mt="lg"
            label={t('events.printing.createStory')}
            description={t('events.printing.createStoryHint')}
            checked={value.action !== null}
            onChange={(e) =>
              setValue(
                'opts.lookForTagsInImages',
                {
                  ...value,
                  action: e.currentTarget.checked
                    ? { kind: 'createAStory', poolName: DEFAULT_PRINTER_POOL, tags: [] }
                    : null,
                },
                dirty,
              )
            }
          />
          {value.action ? (
            <>
              <TextInput
                label={t('events.printing.storyPool')}
                defaultValue={value.action.poolName}
                onChange={(e) =>
                  value.action &&
                  setValue(
                    'opts.lookForTagsInImages',
                    { ...value, action: { ...value.action, poolName: e.currentTarget.value } },
                    dirty,
                  )
                }
              />
              <TextInput
                label={t('events.printing.storyTags')}
                description={t('events.printing.storyTagsHint')}
                placeholder={t('events.stock.tagsPlaceholder')}
                defaultValue={joinList(value.action.tags)}
                onChange={(e) =>
                  value.action &&
                  setValue(
                    'opts.lookForTagsInImages',
                    {
                      ...value,
                      action: { ...value.action, tags: splitListInput(e.currentTarget.value) },
                    },
                    dirty,
                  )
                }
              />
            </>
          ) : null}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}

export function PrintingTab() {
  const { t } = useTranslation();
  const { event, mode } = useEditorContext();
  const { control, setValue, getValues } = useFormContext<EventFormValues>();
  const active = useWatch({ control, name: 'is_photo_printer_active' }) === 1;
  const poolsOn = useWatch({ control, name: 'is_printer_pool_enabled' }) === 1;
  const paidEvent = useWatch({ control, name: 'is_free' }) === 0;
  const printsFree = useWatch({ control, name: 'opts.printsFree' }) === 1;
  const organisationId = useWatch({ control, name: 'organisation_id' });
  const templates = useTemplates(organisationId, false);
  const templateOptions = [
    ...(templates.data?.public_ppt_list ?? []),
    ...(templates.data?.private_ppt_list ?? []),
  ].map((p) => ({ value: p.id, label: p.name }));
  const dirty = { shouldDirty: true } as const;
  const max = EVENT_LIMITS.printCountMax;

  return (
    <Stack gap="sm">
      <FlagCheckbox
        name="is_photo_printer_active"
        label={t('events.printing.active')}
        onToggle={(on) => {
          // Albums spec §4: without a printer, every photo is not printed either.
          if (!on) setValue('is_print_every_photo', 0, dirty);
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberField
          name="max_print_copies_count"
          label={t('events.printing.copies')}
          min={1}
          max={max}
          disabled={!active}
        />
        <NumberField
          name="max_print_photos_count"
          label={t('events.printing.photos')}
          min={1}
          max={max}
          disabled={!active}
        />
      </SimpleGrid>
      <FlagCheckbox
        name="is_print_every_photo"
        label={t('events.printing.everyPhoto')}
        disabled={!active}
      />
      {event && mode === 'edit' ? <AutoPrintProcesses eventId={event.id} /> : null}
      <FlagCheckbox
        name="print_from_all_albums"
        label={t('events.printing.fromAllAlbums')}
        disabled={!active}
      />
      {/* Read by the kiosk's print call: at a paid event, only prints bought print unless free. */}
      <FlagCheckbox
        name="opts.printsFree"
        label={t('events.printing.printsFree')}
        description={
          !paidEvent
            ? t('events.printing.printsFreeEventFree')
            : printsFree
              ? t('events.printing.printsFreeOn')
              : t('events.printing.printsFreeOff')
        }
        disabled={!active || !paidEvent}
      />
      <SectionTitle>{t('events.printing.templatesSection')}</SectionTitle>
      <IdMultiSelect
        name="ppt_id_array"
        label={t('events.printing.templates')}
        options={templateOptions}
        placeholder={templateOptions.length === 0 ? t('events.printing.noneSelected') : undefined}
      />
      <NumberField
        name="place_holder_count"
        label={t('events.printing.placeholderCount')}
        min={1}
        max={max}
      />
      <SectionTitle>{t('events.printing.poolsSection')}</SectionTitle>
      <FlagCheckbox
        name="is_printer_pool_enabled"
        label={t('events.printing.poolsOn')}
        onToggle={(on) => {
          if (on && !(getValues('printer_pool_name_list') ?? []).length)
            setValue('printer_pool_name_list', [DEFAULT_PRINTER_POOL], dirty);
          if (!on) setValue('printer_pool_name_list', null, dirty);
        }}
      />
      <ListField
        name="printer_pool_name_list"
        label={t('events.printing.pools')}
        description={t('events.printing.poolsHint')}
        disabled={!poolsOn}
      />
      <SectionTitle>{t('events.printing.messagesSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextAreaFields
          minRows={2}
          fields={[
            { name: 'opts.printHeaderMessage', label: t('events.printing.header') },
            { name: 'opts.printFooterMessage', label: t('events.printing.footer') },
            { name: 'opts.printConfirmMessage', label: t('events.printing.confirm') },
            { name: 'opts.printingConfirmationText', label: t('events.printing.confirmationText') },
          ]}
        />
      </SimpleGrid>
      <NumberField
        name="opts.printMultiplier"
        label={t('events.printing.multiplier')}
        allowDecimal
      />
      <SectionTitle>{t('events.printing.storiesSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="opts.storiesPrintPool" label={t('events.printing.storiesPool')} />
        <TextField
          name="opts.requiredTagsToGenerateStory"
          label={t('events.printing.storyRequiredTags')}
          placeholder={t('events.stock.tagsPlaceholder')}
        />
      </SimpleGrid>
      <LookForTags />
    </Stack>
  );
}
