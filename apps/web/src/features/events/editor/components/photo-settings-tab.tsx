import { Radio, SimpleGrid, Stack, Group, type MantineSpacing } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LEAD_TEXT, DEFAULT_PRIVACY_POLICY_LINK, EVENT_LIMITS } from '@flashbulb/shared';
import { useEditorContext } from '../hooks/editor-context.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';
import {
  FlagCheckbox,
  ListField,
  NullableNumberField,
  TextAreaField,
  TextField,
} from './form-fields.tsx';
import { FaceDataPanel } from './face-data-panel.tsx';
import { FaceToolsPanel } from './face-tools-panel.tsx';
import { SectionTitle, ToggledNumber } from './toggled-fields.tsx';

export function CollectLeadsRadio() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<EventFormValues>();
  const value = useWatch({ control, name: 'collect_leads' });
  return (
    <Radio.Group
      name="collect_leads"
      label={t('events.photo.albumAccess')}
      value={String(value)}
      onChange={(v) => setValue('collect_leads', v === '1' ? 1 : 0, { shouldDirty: true })}
    >
      <Group mt={4}>
        <Radio value="1" label={t('events.photo.collectLeads')} />
        <Radio value="0" label={t('events.photo.directAlbum')} />
      </Group>
    </Radio.Group>
  );
}

/** What the lead form asks for besides the name and e-mail. */
export function LeadFormFlags({ gap }: { gap?: MantineSpacing }) {
  const { t } = useTranslation();
  return (
    <Group gap={gap}>
      <FlagCheckbox
        name="lead_params.show_company_input_text"
        label={t('events.photo.showCompany')}
      />
      <FlagCheckbox name="lead_params.show_phone_input_text" label={t('events.photo.showPhone')} />
      <FlagCheckbox name="lead_params.show_agree_checkbox" label={t('events.photo.showAgree')} />
    </Group>
  );
}

/**
 * Attendee photo upload (owner-console §4): its fields follow the checkbox; turning it on in edit
 * mode brings back what was saved, turning it off clears them.
 */
function AttendeePhotoUpload() {
  const { t } = useTranslation();
  const { mode, event } = useEditorContext();
  const { control, setValue } = useFormContext<EventFormValues>();
  const on = useWatch({ control, name: 'opts.enableAttendeePhotoUpl' }) === 1;
  const dirty = { shouldDirty: true } as const;
  return (
    <Stack gap={4}>
      <FlagCheckbox
        name="opts.enableAttendeePhotoUpl"
        label={t('events.photo.attendeePhotoUpload')}
        onToggle={(checked) => {
          if (checked && mode === 'edit' && event) {
            setValue('opts.attPhotoImgPrTag', event.opts.attPhotoImgPrTag, dirty);
            setValue('opts.attPhotoImgMaxWidth', event.opts.attPhotoImgMaxWidth, dirty);
            setValue('opts.attPhotoImgMaxHeight', event.opts.attPhotoImgMaxHeight, dirty);
          } else if (!checked) {
            setValue('opts.attPhotoImgPrTag', '', dirty);
            setValue('opts.attPhotoImgMaxWidth', null, dirty);
            setValue('opts.attPhotoImgMaxHeight', null, dirty);
          }
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextField
          name="opts.attPhotoImgPrTag"
          label={t('events.photo.attPhotoTag')}
          disabled={!on}
        />
        <NullableNumberField
          name="opts.attPhotoImgMaxWidth"
          label={t('events.photo.attPhotoMaxWidth')}
          min={1}
          disabled={!on}
        />
        <NullableNumberField
          name="opts.attPhotoImgMaxHeight"
          label={t('events.photo.attPhotoMaxHeight')}
          min={1}
          disabled={!on}
        />
      </SimpleGrid>
    </Stack>
  );
}

function PhotoDelay() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<EventFormValues>();
  const tagsOn = useWatch({ control, name: 'opts.isPhotoDelayCheckTags' }) === 1;
  const max = EVENT_LIMITS.photoDelayMaxMinutes;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ToggledNumber
          toggle="ui.photoDelayOn"
          name="opts.photoDelayMinutes"
          checkboxLabel={t('events.photo.photoDelayOn')}
          label={t('events.photo.photoDelayMinutes')}
          min={0}
          max={max}
        />
        <ToggledNumber
          toggle="ui.vipDelayOn"
          name="opts.photoDelayVipMinutes"
          checkboxLabel={t('events.photo.vipDelayOn')}
          label={t('events.photo.vipDelayMinutes')}
          min={0}
          max={max}
        />
      </SimpleGrid>
      <FlagCheckbox
        name="opts.isPhotoDelayCheckTags"
        label={t('events.photo.tagsDelayOn')}
        onToggle={(on) => {
          if (!on) setValue('opts.photoDelayTagsMinutes', null, { shouldDirty: true });
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NullableNumberField
          name="opts.photoDelayTagsMinutes"
          label={t('events.photo.tagsDelayMinutes')}
          min={0}
          max={max}
          disabled={!tagsOn}
        />
        <ListField
          name="opts.photoDelayTags"
          label={t('events.photo.delayTags')}
          placeholder={t('events.stock.tagsPlaceholder')}
          disabled={!tagsOn}
        />
      </SimpleGrid>
    </Stack>
  );
}

/** New photos wait for approval (the event's moderation queue); owners' uploads may skip it. */
function Moderation() {
  const { t } = useTranslation();
  const { control } = useFormContext<EventFormValues>();
  const on = useWatch({ control, name: 'opts.moderationEnabled' }) === 1;
  return (
    <Stack gap={4}>
      <FlagCheckbox name="opts.moderationEnabled" label={t('events.photo.moderationOn')} />
      <FlagCheckbox
        name="opts.moderationSkipOwnerUploads"
        label={t('events.photo.moderationSkipOwner')}
        disabled={!on}
      />
    </Stack>
  );
}

/** Albums spec §4: the kiosk stream option is disabled when leads are not collected. */
function KioskStreamOption() {
  const { t } = useTranslation();
  const { control } = useFormContext<EventFormValues>();
  const collectLeads = useWatch({ control, name: 'collect_leads' }) === 1;
  return (
    <FlagCheckbox
      name="opts.kioskStreamEnabled"
      label={t('events.photo.kioskStream')}
      description={collectLeads ? undefined : t('events.list.kioskStreamNeedsLeads')}
      disabled={!collectLeads}
    />
  );
}

export function PhotoSettingsTab() {
  const { t } = useTranslation();
  const { mode, event } = useEditorContext();
  return (
    <Stack gap="sm">
      <CollectLeadsRadio />
      <SectionTitle>{t('events.photo.leadSection')}</SectionTitle>
      <LeadFormFlags />
      <TextAreaField
        name="lead_params.please_read_text"
        label={t('events.photo.pleaseReadText')}
        placeholder={DEFAULT_LEAD_TEXT}
        minRows={2}
      />
      <TextField
        name="lead_params.privacy_policy_link"
        label={t('events.photo.privacyLink')}
        placeholder={DEFAULT_PRIVACY_POLICY_LINK}
      />
      <SectionTitle>{t('events.photo.retentionSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <ToggledNumber
          toggle="ui.streamOn"
          name="photo_stream_available_minutes"
          checkboxLabel={t('events.photo.streamOn')}
          label={t('events.photo.streamMinutes')}
          min={EVENT_LIMITS.streamMinutesMin}
          max={EVENT_LIMITS.streamMinutesMax}
        />
        <ToggledNumber
          toggle="ui.autoDeleteOn"
          name="photo_auto_delete_days"
          checkboxLabel={t('events.photo.autoDeleteOn')}
          label={t('events.photo.autoDeleteDays')}
          min={EVENT_LIMITS.autoDeleteDaysMin}
          max={EVENT_LIMITS.autoDeleteDaysMax}
        />
        <ToggledNumber
          toggle="ui.archiveOn"
          name="instant_archive_days"
          checkboxLabel={t('events.photo.archiveOn')}
          label={t('events.photo.archiveDays')}
          min={1}
          max={EVENT_LIMITS.autoDeleteDaysMax}
        />
      </SimpleGrid>
      <SectionTitle>{t('events.photo.delaySection')}</SectionTitle>
      <PhotoDelay />
      <SectionTitle>{t('events.photo.moderationSection')}</SectionTitle>
      <Moderation />
      <SectionTitle>{t('events.photo.kioskSection')}</SectionTitle>
      <KioskStreamOption />
      <FlagCheckbox
        name="opts.photoCashingForKioskEnabled"
        label={t('events.photo.photoCaching')}
      />
      <FlagCheckbox name="opts.enablePhotoUpl" label={t('events.photo.photoUpload')} />
      <AttendeePhotoUpload />
      <FlagCheckbox
        name="opts.guestUploadsPublic"
        label={t('events.photo.guestUploadsPublic')}
        description={t('events.photo.guestUploadsPublicHint')}
      />
      <SectionTitle>{t('events.photo.selfieSection')}</SectionTitle>
      <ListField
        name="opts.forcedIndexTags"
        label={t('events.photo.forcedIndexTags')}
        placeholder={t('events.stock.tagsPlaceholder')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NullableNumberField
          name="opts.selfieExpirationMinutes"
          label={t('events.photo.selfieExpiration')}
          min={0}
        />
        <NullableNumberField
          name="opts.selfieAssociationMinutes"
          label={t('events.photo.selfieAssociation')}
          min={0}
        />
      </SimpleGrid>
      <FlagCheckbox name="opts.disableSelfies" label={t('events.photo.disableSelfies')} />
      <FlagCheckbox name="opts.disableLinkPhotos" label={t('events.photo.disableLinkPhotos')} />
      {mode === 'edit' && event && (
        <>
          <SectionTitle>{t('events.faces.title')}</SectionTitle>
          <FaceDataPanel eventId={event.id} />
          <SectionTitle>{t('events.faceTools.title')}</SectionTitle>
          <FaceToolsPanel eventId={event.id} />
        </>
      )}
    </Stack>
  );
}
