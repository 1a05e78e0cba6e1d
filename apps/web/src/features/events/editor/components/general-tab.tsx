import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EVENT_LIMITS } from '@flashbulb/shared';
import { ConfirmPopup } from '../../../../components/popup.tsx';
import { useErrorText } from '../../../../lib/error-text.ts';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import {
  useCreateEventRobot,
  useImageProcesses,
  useOrganisations,
  useRobots,
} from '../api/catalog-api.ts';
import { useEditorContext } from '../hooks/editor-context.ts';
import { DEFAULT_LOGO_IMAGE, type EventFormValues } from '../utils/event-form-values.ts';
import { newApiToken } from '../utils/random-codes.ts';
import {
  FlagCheckbox,
  IdMultiSelect,
  NumberField,
  TextAreaField,
  TextField,
  usePathError,
} from './form-fields.tsx';
import { ImageToggle, SecureInput, SectionTitle } from './toggled-fields.tsx';
import { GuestLanguageFields } from './language-fields.tsx';

/** A well-known place on each whole-hour offset, so an operator recognises the zone. */
const TIMEZONE_NAMES: Record<number, string> = {
  [-12]: 'Baker Island',
  [-11]: 'Pago Pago',
  [-10]: 'Honolulu',
  [-9]: 'Anchorage',
  [-8]: 'Los Angeles, Vancouver',
  [-7]: 'Denver, Phoenix',
  [-6]: 'Chicago, Mexico City',
  [-5]: 'New York, Toronto, Bogotá',
  [-4]: 'Halifax, Santiago, Caracas',
  [-3]: 'São Paulo, Buenos Aires',
  [-2]: 'South Georgia',
  [-1]: 'Azores, Cape Verde',
  0: 'London, Lisbon, Dakar',
  1: 'Paris, Berlin, Lagos',
  2: 'Athens, Cairo, Johannesburg',
  3: 'Moscow, Istanbul, Nairobi',
  4: 'Dubai, Baku',
  5: 'Karachi, Tashkent',
  6: 'Dhaka, Almaty',
  7: 'Bangkok, Jakarta',
  8: 'Singapore, Beijing, Perth',
  9: 'Tokyo, Seoul',
  10: 'Sydney, Brisbane',
  11: 'Nouméa, Solomon Islands',
  12: 'Auckland, Fiji',
  13: 'Tonga, Samoa',
};

/** UTC-12:00 … UTC+13:00 in whole hours (albums spec §9), each with a place on it. */
const timezoneOptions = Array.from(
  { length: EVENT_LIMITS.timezoneMaxHours - EVENT_LIMITS.timezoneMinHours + 1 },
  (_, i) => {
    const hours = EVENT_LIMITS.timezoneMinHours + i;
    const sign = hours < 0 ? '-' : '+';
    return {
      value: String(hours),
      label:
        `UTC${sign}${String(Math.abs(hours)).padStart(2, '0')}:00 ${TIMEZONE_NAMES[hours] ?? ''}`.trim(),
    };
  },
);

/**
 * The organisation a super user puts the event in (the wizard's first step, the editor's General
 * tab). Robots, processes and templates belong to an organisation: a new one clears them.
 */
export function OrganisationSelect({
  options,
  disabled = false,
}: {
  options: { value: string; label: string }[];
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<EventFormValues>();
  const organisationId = useWatch({ control, name: 'organisation_id' });
  const error = usePathError('organisation_id');
  return (
    <Select
      name="organisation_id"
      label={t('events.general.organisation')}
      placeholder={t('events.general.chooseOrganisation')}
      data={options}
      value={organisationId === null ? null : String(organisationId)}
      disabled={disabled}
      required={!disabled}
      searchable
      comboboxProps={{ zIndex: 400 }}
      error={error.text}
      onChange={(value) => {
        const next = value === null ? null : Number(value);
        if (next === organisationId) return;
        setValue('organisation_id', next, { shouldDirty: true });
        setValue('robot_id_array', [], { shouldDirty: true });
        setValue('image_process_id_array', [], { shouldDirty: true });
        setValue('ppt_id_array', [], { shouldDirty: true });
        setValue('watermark_pt_id', null, { shouldDirty: true });
        error.clear();
      }}
    />
  );
}

/** The event's logo: shown or not, the default one or an uploaded image. */
export function LogoToggle() {
  const { t } = useTranslation();
  return (
    <ImageToggle
      name="logo_full_path"
      checkboxLabel={t('events.general.showLogo')}
      label={t('events.general.logo')}
      description={t('events.general.logoHint')}
      defaultImage={DEFAULT_LOGO_IMAGE}
      uploadRoot="etc"
    />
  );
}

function OrganisationField() {
  const { t } = useTranslation();
  const { mode, user, isSuper, event } = useEditorContext();
  const organisations = useOrganisations(isSuper);

  if (!isSuper) {
    return (
      <TextInput
        label={t('events.general.organisation')}
        value={user.organisation_name ?? ''}
        disabled
        readOnly
      />
    );
  }
  const options = (organisations.data ?? []).map((o) => ({ value: String(o.id), label: o.name }));
  if (event && !options.some((o) => o.value === String(event.organisation_id)))
    options.push({ value: String(event.organisation_id), label: `#${event.organisation_id}` });
  return <OrganisationSelect options={options} disabled={mode === 'edit'} />;
}

export function RobotsField() {
  const { t } = useTranslation();
  const { event } = useEditorContext();
  const { control } = useFormContext<EventFormValues>();
  const organisationId = useWatch({ control, name: 'organisation_id' });
  const selected = useWatch({ control, name: 'robot_id_array' });
  const robots = useRobots(organisationId);
  const moving = (robots.data ?? []).filter(
    (robot) =>
      selected.includes(robot.id) && robot.event_id !== null && robot.event_id !== event?.id,
  );
  return (
    <Stack gap={4}>
      <IdMultiSelect
        name="robot_id_array"
        label={t('events.general.robots')}
        options={(robots.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
        placeholder={robots.data?.length === 0 ? t('events.general.noRobots') : undefined}
      />
      {moving.length > 0 ? (
        <Alert color="yellow" data-testid="robot-move-note">
          {moving.map((robot) => (
            <Text size="sm" key={robot.id}>
              {t('events.general.robotMoves', {
                robot: robot.name,
                event: robot.event_name ?? `#${robot.event_id}`,
              })}
            </Text>
          ))}
        </Alert>
      ) : null}
      {event ? (
        <Anchor
          size="sm"
          component={Link}
          to={`/robots?event=${event.id}#activity`}
          data-testid="event-robot-activity"
        >
          {t('events.general.robotActivity')}
        </Anchor>
      ) : null}
      <NewEventRobot />
    </Stack>
  );
}

/** The exact robot-client command for a robot key and event, `--server` included. */
export const uploadCommand = (origin: string, eventName: string, key: string): string =>
  `npm run cli -- upload --server ${origin} --event ${eventName} --key ${key} <folder>`;

/**
 * Create a robot from the stored event: it feeds the event at once; its key and the upload
 * command are shown once. Admins only (they create robots), and only for a saved event.
 */
function NewEventRobot() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { event, isAdmin, mode } = useEditorContext();
  const { getValues, setValue } = useFormContext<EventFormValues>();
  const create = useCreateEventRobot();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  if (!isAdmin || mode !== 'edit' || !event) return null;
  const command = shown ? uploadCommand(window.location.origin, event.name, shown.key) : '';
  return (
    <Stack gap={4} data-testid="new-event-robot">
      <Group align="flex-end" wrap="wrap" gap="xs">
        <TextInput
          label={t('events.general.newRobotName')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={create.error ? errorText(errorKeyOf(create.error)) : undefined}
          style={{ flex: '1 1 180px' }}
        />
        <Button
          variant="default"
          loading={create.isPending}
          onClick={() =>
            create.mutate(
              { organisation_id: event.organisation_id, event_id: event.id, name },
              {
                onSuccess: (robot) => {
                  setShown({ name: robot.name, key: robot.api_key });
                  setName('');
                  // The server attached it; the form's list follows, so a save keeps it.
                  setValue('robot_id_array', [...getValues('robot_id_array'), robot.id]);
                },
              },
            )
          }
        >
          {t('events.general.createRobot')}
        </Button>
      </Group>
      {shown ? <RobotKeyShown name={shown.name} command={command} /> : null}
    </Stack>
  );
}

/** A new robot's key, shown once, inside the exact upload command with a copy button. */
export function RobotKeyShown({ name, command }: { name: string; command: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="yellow"
      title={t('events.general.robotCreated', { name })}
      data-testid="new-robot-key"
    >
      <Stack gap="xs">
        <Text size="sm">{t('events.general.robotKeyOnce')}</Text>
        <Code block data-testid="upload-command" style={{ wordBreak: 'break-all' }}>
          {command}
        </Code>
        <CopyButton value={command}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy} w="fit-content">
              {copied ? t('events.general.copied') : t('events.general.copyCommand')}
            </Button>
          )}
        </CopyButton>
      </Stack>
    </Alert>
  );
}

function ApiTokenField() {
  const { t } = useTranslation();
  const { isAdmin } = useEditorContext();
  const { setValue } = useFormContext<EventFormValues>();
  const [token, setToken] = useState<string | null>(null);
  if (!isAdmin) return null;
  return (
    <Stack gap={4}>
      <SecureInput field="flashbulb_api_token" label={t('events.secure.flashbulb_api_token')} />
      <Group>
        <Button variant="subtle" size="xs" onClick={() => setToken(newApiToken())}>
          {t('events.secure.resetToken')}
        </Button>
      </Group>
      <ConfirmPopup
        opened={token !== null}
        title={t('events.secure.resetTokenTitle')}
        confirmLabel={t('events.secure.useToken')}
        onConfirm={() => {
          if (token) setValue('secure.flashbulb_api_token', token, { shouldDirty: true });
          setToken(null);
        }}
        onCancel={() => setToken(null)}
      >
        <Text size="sm">{t('events.secure.resetTokenText')}</Text>
        <Text ff="monospace" data-testid="new-api-token" style={{ wordBreak: 'break-all' }}>
          {token}
        </Text>
      </ConfirmPopup>
    </Stack>
  );
}

/** Every IANA zone the browser knows, searchable; '' keeps the fixed UTC offset. */
const zoneOptions = (none: string) => [
  { value: '', label: none },
  ...Intl.supportedValuesOf('timeZone').map((zone) => ({ value: zone, label: zone })),
];

/** The event's time zone (the wizard's first step, the editor's General tab). */
export function TimeZoneField({ description }: { description: string }) {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<EventFormValues>();
  const zone = useWatch({ control, name: 'time_zone' });
  return (
    <Select
      name="time_zone"
      label={t('events.general.timeZone')}
      description={description}
      data={zoneOptions(t('events.general.noTimeZone'))}
      value={zone ?? ''}
      searchable
      // Hundreds of zones: the list shows the first matches of what is typed.
      limit={50}
      allowDeselect={false}
      comboboxProps={{ zIndex: 400 }}
      onChange={(value) => value !== null && setValue('time_zone', value, { shouldDirty: true })}
    />
  );
}

export function GeneralTab() {
  const { t } = useTranslation();
  const { mode, event } = useEditorContext();
  const { control, setValue } = useFormContext<EventFormValues>();
  const organisationId = useWatch({ control, name: 'organisation_id' });
  const attendeeIdRegex = useWatch({ control, name: 'opts.attendeeIdRegex' });
  const timezone = useWatch({ control, name: 'date_utc_diff_hours' });
  const zone = useWatch({ control, name: 'time_zone' });
  const processes = useImageProcesses(organisationId);

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <OrganisationField />
        {mode === 'edit' && event ? (
          <div data-testid="event-name-container">
            <TextInput label={t('events.general.code')} value={event.name} readOnly />
          </div>
        ) : null}
      </SimpleGrid>
      <TextField name="full_name" label={t('events.general.title')} required />
      <TextAreaField name="opts.description" label={t('events.general.description')} required />
      <TextAreaField name="empty_album_text" label={t('events.general.emptyAlbumText')} required />
      <FlagCheckbox name="is_visible" label={t('events.general.visible')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TimeZoneField description={t('events.general.timeZoneHint')} />
        <Select
          name="date_utc_diff_hours"
          label={t('events.general.timezone')}
          description={zone ? t('events.general.offsetUnused') : undefined}
          data={timezoneOptions}
          value={String(timezone)}
          allowDeselect={false}
          comboboxProps={{ zIndex: 400 }}
          onChange={(value) =>
            value !== null && setValue('date_utc_diff_hours', Number(value), { shouldDirty: true })
          }
        />
        <TextField name="hash_tag" label={t('events.general.hashTag')} />
      </SimpleGrid>
      <TextField
        name="email_for_reports"
        label={t('events.general.emailForReports')}
        description={t('events.general.commaSeparated')}
      />
      <SectionTitle>{t('events.general.logoSection')}</SectionTitle>
      <LogoToggle />
      <TextField name="logo_link" label={t('events.general.logoLink')} />
      <TextField name="opts.supportLink" label={t('events.general.supportLink')} />
      <GuestLanguageFields />
      <SectionTitle>{t('events.general.devicesSection')}</SectionTitle>
      <RobotsField />
      <IdMultiSelect
        name="image_process_id_array"
        label={t('events.general.imageProcesses')}
        options={(processes.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
      />
      <SectionTitle>{t('events.general.attendeesSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="opts.attendeeIdRegex" label={t('events.general.attendeeIdRegex')} />
        <TextField
          name="opts.attendeeIdVipRegex"
          label={t('events.general.attendeeIdVipRegex')}
          disabled={!attendeeIdRegex.trim()}
        />
        <TextField name="opts.vipToken" label={t('events.general.vipToken')} />
      </SimpleGrid>
      <SectionTitle>{t('events.general.facesSection')}</SectionTitle>
      <FlagCheckbox
        name="enable_facial_recognition"
        label={t('events.general.facialRecognition')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberField
          name="opts.faceRecognitionConfidence"
          label={t('events.general.faceConfidence')}
          min={0}
          max={100}
        />
        <TextField name="opts.faceRecognitionText" label={t('events.general.faceText')} />
      </SimpleGrid>
      <SectionTitle>{t('events.general.displaySection')}</SectionTitle>
      <FlagCheckbox name="opts.disableEventLabel" label={t('events.general.disableEventLabel')} />
      <FlagCheckbox
        name="opts.allowKioskPhotoDelete"
        label={t('events.general.allowKioskPhotoDelete')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberField name="opts.pictureSize" label={t('events.general.pictureSize')} min={1} />
        <NumberField
          name="opts.eventMultiplier"
          label={t('events.general.eventMultiplier')}
          allowDecimal
        />
      </SimpleGrid>
      <ApiTokenField />
    </Stack>
  );
}
