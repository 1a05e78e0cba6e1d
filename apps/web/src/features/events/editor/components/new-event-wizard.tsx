import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  ColorInput,
  Group,
  Image,
  Modal,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { FormProvider, useForm, useFormContext, useWatch, type Path } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  createRobot,
  eventWallClock,
  Role,
  type FlashbulbEvent,
  type RuleIssue,
  type User,
} from '@flashbulb/shared';
import { readableAccent } from '@flashbulb/shared/rules/accent';
import { light } from '../../../../design/tokens.ts';
import { albumLink } from '../../../../lib/album-links.ts';
import { callApi, errorKeyOf, isApiError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { eventQueryKeys, saveNewEvent } from '../api/events-api.ts';
import { EditorContext, type EditorContextValue } from '../hooks/editor-context.ts';
import {
  createBody,
  DEFAULT_WATERMARK_IMAGE,
  editorIssues,
  formValuesOf,
  newUploadFolder,
  type EventFormValues,
} from '../utils/event-form-values.ts';
import { fieldLabelKey } from '../utils/field-labels.ts';
import {
  firstStepWithIssue,
  issuesOfStep,
  WIZARD_STEPS,
  type WizardStep,
} from '../utils/wizard-steps.ts';
import { TextAreaField, TextField, usePathError } from './form-fields.tsx';
import {
  LogoToggle,
  OrganisationSelect,
  RobotKeyShown,
  RobotsField,
  TimeZoneField,
  uploadCommand,
} from './general-tab.tsx';
import { CollectLeadsRadio, LeadFormFlags } from './photo-settings-tab.tsx';
import { FromAddressField } from './email-tab.tsx';
import { SharePanel } from './share-panel.tsx';
import { StickyFooter } from './sticky-footer.tsx';
import { SmsTab } from './sms-tab.tsx';
import { ImageToggle } from './toggled-fields.tsx';

function BasicsStep({
  isSuper,
  organisations,
}: {
  isSuper: boolean;
  organisations: { id: number; name: string }[];
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {isSuper ? (
        <OrganisationSelect
          options={organisations.map((o) => ({ value: String(o.id), label: o.name }))}
        />
      ) : null}
      <TextField name="full_name" label={t('events.general.title')} required data-autofocus />
      <TextAreaField
        name="opts.description"
        label={t('events.general.description')}
        required
        minRows={2}
      />
      <TimeZoneField description={t('events.wizard.timeZoneHint')} />
    </Stack>
  );
}

/** The guest album's header as the look step sets it: logo, title, date, accent, watermark. */
function AlbumHeaderPreview() {
  const { t } = useTranslation();
  const { control } = useFormContext<EventFormValues>();
  const [title, description, logo, accent, watermark, zone, offset] = useWatch({
    control,
    name: [
      'full_name',
      'opts.description',
      'logo_full_path',
      'opts.guestAccentColor',
      'photo_watermark',
      'time_zone',
      'date_utc_diff_hours',
    ],
  });
  // The guest album's own colours: the brand colour made readable, else the tokens' primary.
  const { accent: color, onAccent } = /^#[0-9a-fA-F]{6}$/.test(accent)
    ? readableAccent(accent.toLowerCase())
    : { accent: light.accent, onAccent: light.onAccent };
  // The album shows the day of its photos in the event's zone: today's, in the preview.
  const today = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' }).format(
    eventWallClock({ time_zone: zone, date_utc_diff_hours: offset }, new Date()),
  );
  return (
    <Paper withBorder radius="md" p={0} data-testid="album-header-preview" aria-hidden>
      <Box p="md" style={{ borderTop: `6px solid ${color}`, textAlign: 'center' }}>
        {logo ? <Image src={logo} alt="" h={48} w="auto" fit="contain" mx="auto" mb="xs" /> : null}
        <Title order={3} size="h4" data-testid="preview-title">
          {title.trim() || t('events.wizard.previewTitle')}
        </Title>
        {description.trim() ? (
          <Text size="sm" c="dimmed" lineClamp={2}>
            {description}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {today}
        </Text>
        <Group justify="center" mt="sm" gap="xs">
          <Box
            px="md"
            py={6}
            fz="xs"
            style={{ background: color, color: onAccent, borderRadius: 999 }}
          >
            {t('events.wizard.previewDownload')}
          </Box>
        </Group>
      </Box>
      <SimpleGrid cols={3} spacing={2} p={2}>
        {[0, 1, 2].map((i) => (
          <Box
            key={i}
            pos="relative"
            h={64}
            style={{ background: `hsl(${200 + i * 25} 25% ${70 - i * 8}%)` }}
          >
            {watermark ? (
              <Image
                src={watermark}
                alt=""
                pos="absolute"
                right={4}
                bottom={4}
                h={18}
                w="auto"
                style={{ opacity: 0.8 }}
              />
            ) : null}
          </Box>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

function LookStep() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<EventFormValues>();
  const accent = useWatch({ control, name: 'opts.guestAccentColor' });
  const watermark = useWatch({ control, name: 'photo_watermark' });
  // The photo watermark is the image kind (the template kind is in "Advanced").
  useEffect(() => {
    if (watermark !== null) setValue('ui.watermarkMode', 'image');
  }, [watermark, setValue]);
  const accentError = usePathError('opts.guestAccentColor');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <Stack gap="sm">
        <LogoToggle />
        <ColorInput
          name="opts.guestAccentColor"
          label={t('events.options.guestAccentColor')}
          description={t('events.wizard.accentHint')}
          format="hex"
          value={accent}
          onChange={(value) => {
            setValue('opts.guestAccentColor', value, { shouldDirty: true });
            accentError.clear();
          }}
          swatches={['#1c7ed6', '#0ca678', '#f08c00', '#e03131', '#7048e8', '#212529']}
          popoverProps={{ zIndex: 400 }}
          error={accentError.text}
        />
        <ImageToggle
          name="photo_watermark"
          checkboxLabel={t('events.watermarks.photo')}
          label={t('events.watermarks.photoImage')}
          description={t('events.watermarks.imageHint')}
          defaultImage={DEFAULT_WATERMARK_IMAGE}
          uploadRoot="watermarks"
        />
      </Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('events.wizard.preview')}
        </Text>
        <AlbumHeaderPreview />
      </Stack>
    </SimpleGrid>
  );
}

function DeliveryStep() {
  const { t } = useTranslation();
  const { control } = useFormContext<EventFormValues>();
  const address = useWatch({ control, name: 'email_from_address' });
  const leads = useWatch({ control, name: 'collect_leads' }) === 1;
  return (
    <Stack gap="sm">
      <Text fw={600}>{t('events.wizard.emailSection')}</Text>
      <FromAddressField>
        <Badge mb={8} color="yellow" variant="light" data-testid="sender-verification">
          {t('events.email.notVerified')}
        </Badge>
      </FromAddressField>
      <Text size="xs" c="dimmed">
        {address.trim()
          ? t('events.wizard.verificationOnCreate', { address: address.trim() })
          : t('events.wizard.verificationHint')}
      </Text>
      <TextField name="email_from_name" label={t('events.email.fromName')} required />
      <TextField name="email_subject" label={t('events.email.subject')} />
      <Text fw={600} mt="sm">
        {t('events.wizard.smsSection')}
      </Text>
      <SmsTab />
      <Text fw={600} mt="sm">
        {t('events.wizard.leadsSection')}
      </Text>
      <CollectLeadsRadio />
      {leads ? <LeadFormFlags gap="lg" /> : null}
    </Stack>
  );
}

function BoothsStep({
  canCreateRobot,
  robotName,
  onRobotName,
}: {
  canCreateRobot: boolean;
  robotName: string;
  onRobotName: (name: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('events.wizard.boothsHint')}
      </Text>
      <RobotsField />
      {canCreateRobot ? (
        <TextInput
          label={t('events.wizard.newRobot')}
          description={t('events.wizard.newRobotHint')}
          value={robotName}
          onChange={(e) => onRobotName(e.currentTarget.value)}
          maxLength={100}
        />
      ) : null}
    </Stack>
  );
}

interface Finished {
  event: FlashbulbEvent;
  robot: { name: string; key: string } | null;
  robotError: string | null;
}

function FinishedStep({
  finished,
  onOpenEditor,
  onClose,
}: {
  finished: Finished;
  onOpenEditor: (code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { event, robot, robotError } = finished;
  const [sharing, setSharing] = useState(false);
  const album = albumLink(event.public_api_key, 'public');
  return (
    <Stack gap="md" data-testid="wizard-finished">
      <Alert color="green" title={t('events.wizard.createdTitle', { name: event.full_name })}>
        <Text size="sm">{t('events.wizard.createdCode', { code: event.name })}</Text>
        {event.email_from_address && !event.email_from_address_verified ? (
          <Text size="sm">
            {t('events.editor.verificationSent', { address: event.email_from_address })}
          </Text>
        ) : null}
      </Alert>
      {robot ? (
        <RobotKeyShown
          name={robot.name}
          command={uploadCommand(window.location.origin, event.name, robot.key)}
        />
      ) : null}
      {robotError ? (
        <Alert color="red" role="alert">
          {errorText(robotError)}
        </Alert>
      ) : null}
      <Group gap="sm" wrap="wrap">
        <Button component="a" href={album} target="_blank" rel="noopener" variant="light">
          {t('events.wizard.openAlbum')}
        </Button>
        <Button variant="light" onClick={() => setSharing(true)}>
          {t('events.wizard.openShare')}
        </Button>
        <Button variant="light" onClick={() => onOpenEditor(event.name)}>
          {t('events.wizard.openEditor')}
        </Button>
        <Button onClick={onClose}>{t('events.wizard.done')}</Button>
      </Group>
      <Anchor size="xs" href={album} target="_blank" rel="noopener" data-testid="album-link">
        {album}
      </Anchor>
      {sharing ? (
        <SharePanel
          event={{ ...event, kiosk_stream_enabled: event.opts.kioskStreamEnabled === 1 }}
          onClose={() => setSharing(false)}
        />
      ) : null}
    </Stack>
  );
}

/**
 * A new event in four steps (name and date → look → delivery → booths): the settings a first event
 * needs, each step checked by the shared rules before Next, then "Create event" and a finished
 * screen with the new robot's key and upload command, the album, the share panel and the full
 * editor. "All settings" opens the full editor with what was typed.
 */
export function NewEventWizard({
  user,
  organisations,
  onClose,
  onAdvanced,
  onOpenEditor,
}: {
  user: User;
  /** Super users choose the organisation (others create in their own). */
  organisations: { id: number; name: string }[];
  onClose: () => void;
  /** "All settings": the full editor in add mode, with the values typed so far. */
  onAdvanced: (values: EventFormValues, uploadFolder: string) => void;
  onOpenEditor: (code: string) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const phone = useMediaQuery('(max-width: 48em)');
  const isSuper = user.role === Role.SUPER_USER;
  const isAdmin = user.role === Role.SUPER_USER || user.role === Role.ADMIN;
  const form = useForm<EventFormValues>({
    defaultValues: formValuesOf(null, user.organisation_id),
  });
  const [active, setActive] = useState(0);
  const [robotName, setRobotName] = useState('');
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [advancedIssues, setAdvancedIssues] = useState<RuleIssue[]>([]);
  const [finished, setFinished] = useState<Finished | null>(null);
  const [uploadFolder] = useState(newUploadFolder);

  const context = useMemo<EditorContextValue>(
    () => ({
      mode: 'add',
      event: null,
      user,
      isAdmin,
      isSuper,
      revealSecure: () => undefined,
      revealingSecure: false,
      uploadFolder,
    }),
    [user, isAdmin, isSuper, uploadFolder],
  );

  const allIssues = (): RuleIssue[] => {
    const values = form.getValues();
    const issues = editorIssues(values);
    if (isSuper && values.organisation_id === null)
      issues.unshift({ field: 'organisation_id', key: 'organisation_required' });
    return issues;
  };

  const mark = (issues: RuleIssue[]) => {
    for (const issue of issues)
      form.setError(issue.field as Path<EventFormValues>, { type: 'rule', message: issue.key });
  };

  /** Next: this step's problems are shown on it and keep it open. */
  const next = () => {
    const step = WIZARD_STEPS[active];
    if (!step) return;
    form.clearErrors();
    const issues = issuesOfStep(allIssues(), step);
    if (issues.length > 0) {
      mark(issues);
      return;
    }
    setActive((n) => n + 1);
  };

  const create = async () => {
    form.clearErrors();
    setFailure(null);
    const issues = allIssues();
    const step = firstStepWithIssue(issues);
    if (step !== null) {
      mark(issues);
      setActive(WIZARD_STEPS.indexOf(step));
      return;
    }
    if (issues.length > 0) {
      // Only settings of the full editor are wrong: name them (it opens on their tab).
      setAdvancedIssues(issues);
      return;
    }
    setCreating(true);
    let event: FlashbulbEvent;
    try {
      event = await saveNewEvent(createBody(form.getValues()));
    } catch (error) {
      setCreating(false);
      const key = errorKeyOf(error);
      if (isApiError(error) && error.type === 'field' && error.field) {
        const issue = { field: error.field, key };
        const at = firstStepWithIssue([issue]);
        if (at !== null) {
          mark([issue]);
          setActive(WIZARD_STEPS.indexOf(at));
          return;
        }
        setAdvancedIssues([issue]);
        return;
      }
      setFailure(key);
      return;
    }
    let robot: Finished['robot'] = null;
    let robotError: string | null = null;
    const name = robotName.trim();
    if (name && isAdmin) {
      try {
        const made = await callApi(createRobot, {
          organisation_id: event.organisation_id,
          event_id: event.id,
          name,
        });
        robot = { name: made.name, key: made.api_key };
        void queryClient.invalidateQueries({ queryKey: ['robots'] });
      } catch (error) {
        robotError = errorKeyOf(error);
      }
    }
    setCreating(false);
    void queryClient.invalidateQueries({ queryKey: eventQueryKeys.list() });
    setFinished({ event, robot, robotError });
    setActive(WIZARD_STEPS.length);
  };

  const last = active === WIZARD_STEPS.length - 1;
  const stepLabel = (step: WizardStep) => t(`events.wizard.steps.${step}`);
  const stepContent = (step: WizardStep) =>
    step === 'basics' ? (
      <BasicsStep isSuper={isSuper} organisations={organisations} />
    ) : step === 'look' ? (
      <LookStep />
    ) : step === 'delivery' ? (
      <DeliveryStep />
    ) : (
      <BoothsStep canCreateRobot={isAdmin} robotName={robotName} onRobotName={setRobotName} />
    );

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('events.wizard.title')}
      size="xl"
      fullScreen={phone}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('events.editor.close') }}
    >
      <EditorContext.Provider value={context}>
        <FormProvider {...form}>
          <form
            noValidate
            aria-label={t('events.wizard.title')}
            onSubmit={(e) => {
              e.preventDefault();
              if (finished) return;
              if (last) void create();
              else next();
            }}
          >
            {phone ? (
              // A phone has no room for four stacked steps above the form: one line says where
              // the operator is, and the step's fields start right below it.
              <Box>
                <Stack gap={6} data-testid="wizard-compact-steps">
                  <Text size="sm" fw={600}>
                    {finished
                      ? t('events.wizard.stepsDone')
                      : t('events.wizard.stepOf', {
                          n: active + 1,
                          count: WIZARD_STEPS.length,
                          label: stepLabel(WIZARD_STEPS[active] ?? 'basics'),
                        })}
                  </Text>
                  <Progress
                    value={(Math.min(active + 1, WIZARD_STEPS.length) / WIZARD_STEPS.length) * 100}
                    size="sm"
                    aria-label={t('events.wizard.progress')}
                  />
                </Stack>
                <Box pt="md">
                  {finished ? (
                    <FinishedStep
                      finished={finished}
                      onOpenEditor={onOpenEditor}
                      onClose={onClose}
                    />
                  ) : (
                    stepContent(WIZARD_STEPS[active] ?? 'basics')
                  )}
                </Box>
              </Box>
            ) : (
              <Stepper
                active={active}
                onStepClick={(step) => {
                  // Back to any earlier step; forward only through Next (each step is checked).
                  if (!finished && step < active) setActive(step);
                }}
                size="sm"
              >
                {WIZARD_STEPS.map((step) => (
                  <Stepper.Step
                    key={step}
                    label={stepLabel(step)}
                    allowStepSelect={!finished}
                    data-testid={`wizard-step-${step}`}
                  >
                    <Box pt="md">{stepContent(step)}</Box>
                  </Stepper.Step>
                ))}
                <Stepper.Completed>
                  {finished ? (
                    <Box pt="md">
                      <FinishedStep
                        finished={finished}
                        onOpenEditor={onOpenEditor}
                        onClose={onClose}
                      />
                    </Box>
                  ) : null}
                </Stepper.Completed>
              </Stepper>
            )}
            {failure ? (
              <Alert color="red" role="alert" mt="md">
                {errorText(failure)}
              </Alert>
            ) : null}
            {advancedIssues.length > 0 ? (
              <Alert color="red" role="alert" mt="md" title={t('events.editor.issuesTitle')}>
                <Stack gap={4}>
                  {advancedIssues.map((issue) => {
                    const labelKey = fieldLabelKey(issue.field);
                    return (
                      <Text size="sm" key={issue.field}>
                        {labelKey ? t(labelKey as 'events.general.title') : issue.field}:{' '}
                        {errorText(issue.key)}
                      </Text>
                    );
                  })}
                </Stack>
              </Alert>
            ) : null}
            {finished ? null : (
              <StickyFooter>
                <Button variant="subtle" onClick={() => onAdvanced(form.getValues(), uploadFolder)}>
                  {t('events.wizard.advanced')}
                </Button>
                <Group gap="xs">
                  {active > 0 ? (
                    <Button variant="default" onClick={() => setActive((n) => n - 1)}>
                      {t('events.wizard.back')}
                    </Button>
                  ) : null}
                  {last ? (
                    <Button type="submit" loading={creating}>
                      {t('events.wizard.create')}
                    </Button>
                  ) : (
                    <Button type="submit">{t('events.wizard.next')}</Button>
                  )}
                </Group>
              </StickyFooter>
            )}
          </form>
        </FormProvider>
      </EditorContext.Provider>
    </Modal>
  );
}
