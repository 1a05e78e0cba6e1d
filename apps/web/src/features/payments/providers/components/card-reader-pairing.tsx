import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorKeyOf, isApiError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  exampleKioskLink,
  reversedToken,
  squareCreateDeviceCode,
  squareGetDeviceCode,
  squareLocations,
} from '../api/square-pairing-api.ts';

/** What pairing learnt about a reader (saved for the organisation; the token never is). */
export interface PairedReader {
  name: string;
  locationId: string;
  locationName: string;
  deviceCodeId: string;
  /** Empty while the reader is still unpaired. */
  deviceId: string;
}

type Field = 'access_token' | 'name' | 'location_id' | null;

/**
 * The card reader pairing popup (albums spec §4): token → locations → location and device name →
 * the device code the reader signs in with → check pairing ("still unpaired" while Square has no
 * device id) → the reversed token, device id and an example kiosk link, with the warning that
 * none of it is saved. Square's own refusals (`error_message`) are shown as Square wrote them.
 */
export function CardReaderPairing({
  opened,
  organisationId = null,
  squareConnected = false,
  onClose,
  onReader,
}: {
  opened: boolean;
  /** The organisation the reader is for (null: the caller's own). */
  organisationId?: number | null;
  /** The organisation has a Square connection: the token may be left empty to use it. */
  squareConnected?: boolean;
  onClose: () => void;
  /** Called when the code is made (unpaired) and again once paired. */
  onReader: (reader: PairedReader) => Promise<void>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [token, setToken] = useState('');
  const [locations, setLocations] = useState<{ id: string; name: string }[] | null>(null);
  const [locationId, setLocationId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [code, setCode] = useState<{ id: string; code: string } | null>(null);
  const [deviceId, setDeviceId] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ text: string; field: Field } | null>(null);
  const [unpaired, setUnpaired] = useState(false);

  const step = deviceId ? 3 : code ? 2 : locations ? 1 : 0;

  const reset = () => {
    setToken('');
    setLocations(null);
    setLocationId(null);
    setName('');
    setCode(null);
    setDeviceId('');
    setProblem(null);
    setUnpaired(false);
  };
  const close = () => {
    reset();
    onClose();
  };

  /** Runs one call: our error keys by field, Square's text as it came. */
  const run = async (call: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await call();
    } catch (error) {
      const field = isApiError(error) ? ((error.field as Field) ?? null) : null;
      setProblem({ text: errorText(errorKeyOf(error)), field });
    } finally {
      setBusy(false);
    }
  };

  const findLocations = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const reply = await squareLocations(token, organisationId);
      if (reply.error_message) {
        setProblem({ text: reply.error_message, field: null });
        return;
      }
      setLocations(reply.locations);
      setLocationId(reply.locations.length === 1 ? reply.locations[0]!.id : null);
    });
  };

  const readerWith = (deviceCodeId: string, paired: string): PairedReader => ({
    name: name.trim(),
    locationId: locationId ?? '',
    locationName: locations?.find((l) => l.id === locationId)?.name ?? '',
    deviceCodeId,
    deviceId: paired,
  });

  const createCode = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const reply = await squareCreateDeviceCode(token, name, locationId ?? '', organisationId);
      if (reply.error_message || !reply.device_code) {
        setProblem({
          text: reply.error_message ?? errorText('square_create_device_error'),
          field: null,
        });
        return;
      }
      setCode({ id: reply.device_code.id, code: reply.device_code.code });
      await onReader(readerWith(reply.device_code.id, ''));
    });
  };

  const checkPairing = () => {
    if (!code) return;
    void run(async () => {
      const reply = await squareGetDeviceCode(token, code.id, organisationId);
      if (reply.error_message || !reply.device_code) {
        setProblem({
          text: reply.error_message ?? errorText('square_get_device_error'),
          field: null,
        });
        return;
      }
      if (!reply.device_code.device_id) {
        setUnpaired(true);
        return;
      }
      setUnpaired(false);
      setDeviceId(reply.device_code.device_id);
      await onReader(readerWith(code.id, reply.device_code.device_id));
    });
  };

  const fieldError = (field: Field) =>
    problem && problem.field === field ? problem.text : undefined;
  const link = deviceId ? exampleKioskLink(window.location.origin, deviceId) : '';

  return (
    <Modal opened={opened} onClose={close} title={t('payments.pairing.title')} size="xl">
      <Stack gap="md">
        <Stepper active={step} size="xs" allowNextStepsSelect={false}>
          <Stepper.Step label={t('payments.pairing.stepToken')} />
          <Stepper.Step label={t('payments.pairing.stepReader')} />
          <Stepper.Step label={t('payments.pairing.stepCode')} />
          <Stepper.Step label={t('payments.pairing.stepDone')} />
        </Stepper>
        {problem && !problem.field && (
          <Alert color="red" role="alert" data-testid="pairing-error">
            {problem.text}
          </Alert>
        )}
        {step === 0 && (
          <Stack gap="sm" component="form" onSubmit={findLocations}>
            <Text size="sm" c="dimmed">
              {t('payments.pairing.tokenHelp')}
            </Text>
            {squareConnected && (
              <Text size="sm" data-testid="use-connection">
                {t('payments.pairing.useConnection')}
              </Text>
            )}
            <PasswordInput
              label={t('payments.pairing.token')}
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
              error={fieldError('access_token')}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end">
              <Button type="submit" loading={busy}>
                {t('payments.pairing.findLocations')}
              </Button>
            </Group>
          </Stack>
        )}
        {step === 1 && locations && (
          <Stack gap="sm" component="form" onSubmit={createCode}>
            {locations.length === 0 && <Text>{t('payments.pairing.noLocations')}</Text>}
            <Select
              label={t('payments.pairing.location')}
              placeholder={t('payments.pairing.chooseLocation')}
              data={locations.map((l) => ({ value: l.id, label: l.name }))}
              value={locationId}
              onChange={setLocationId}
              error={fieldError('location_id')}
              allowDeselect={false}
            />
            <TextInput
              label={t('payments.pairing.deviceName')}
              placeholder={t('payments.pairing.deviceNamePlaceholder')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError('name')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={busy}>
                {t('payments.pairing.createCode')}
              </Button>
            </Group>
          </Stack>
        )}
        {step === 2 && code && (
          <Stack gap="sm" align="center">
            <Text ta="center">{t('payments.pairing.signInWith')}</Text>
            <Title order={2} ff="monospace" lts={6} data-testid="device-code">
              {code.code}
            </Title>
            {unpaired && (
              <Alert color="yellow" data-testid="still-unpaired">
                {t('payments.pairing.stillUnpaired')}
              </Alert>
            )}
            <Button onClick={checkPairing} loading={busy}>
              {t('payments.pairing.checkPairing')}
            </Button>
          </Stack>
        )}
        {step === 3 && (
          <Stack gap="sm" data-testid="paired">
            <Alert color="green">{t('payments.pairing.paired', { name: name.trim() })}</Alert>
            <Alert color="orange" title={t('payments.pairing.notSavedTitle')}>
              {t('payments.pairing.notSaved')}
            </Alert>
            <Result
              label={t('payments.pairing.reversedToken')}
              value={
                token.trim() ? reversedToken(token.trim()) : t('payments.pairing.connectionToken')
              }
              testId="reversed-token"
            />
            <Result label={t('payments.pairing.deviceId')} value={deviceId} testId="device-id" />
            <Result label={t('payments.pairing.kioskLink')} value={link} testId="kiosk-link" />
            <Group justify="flex-end">
              <Button onClick={close}>{t('payments.pairing.done')}</Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

function Result({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code
          block
          style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
          data-testid={testId}
        >
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? t('payments.pairing.copied') : t('payments.pairing.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
