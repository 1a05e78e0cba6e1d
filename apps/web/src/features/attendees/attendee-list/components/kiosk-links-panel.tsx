import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import {
  kioskCardLink,
  kioskCardText,
  kioskEntryUrl,
  type Attendee,
  type KioskEntryMode,
} from '@flashbulb/shared';

/**
 * The event's kiosks (albums §2.3): a kiosk is its entry page link — the kiosk key it
 * uses (the event's private key), the mode, pricing model, preview sizes, photo delete and idle
 * timeout — opened on the device or downloaded as one HTML file; and the cards' QR sheet.
 */
export function KioskLinksPanel({
  privateKey,
  displayToken,
  attendees,
}: {
  privateKey: string;
  /** The event's display token: with the private key it makes the screen the organiser's kiosk. */
  displayToken?: string;
  /** The attendees on screen: their cards go on the QR sheet. */
  attendees: readonly Attendee[];
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<KioskEntryMode>('evSB2');
  const [pricingModel, setPricingModel] = useState('');
  const [kioskPreviewSize, setKioskPreviewSize] = useState<number | ''>('');
  const [miniAlbumPreviewSize, setMiniAlbumPreviewSize] = useState<number | ''>('');
  const [allowDelete, setAllowDelete] = useState(false);
  // Empty: the kiosk takes the event's session expiry (Options, Kiosk; default 2 minutes).
  const [timeoutSeconds, setTimeoutSeconds] = useState<number | ''>('');
  const [sheetOpen, setSheetOpen] = useState(false);

  const link = useMemo(
    () =>
      kioskEntryUrl(window.location.origin, {
        mode,
        privateKey,
        pricingModel: pricingModel.trim() || null,
        kioskPreviewSize: kioskPreviewSize || null,
        miniAlbumPreviewSize: miniAlbumPreviewSize || null,
        allowKioskPhotoDelete: allowDelete,
        pageActiveTimeoutMs: timeoutSeconds === '' ? null : Math.max(3, timeoutSeconds) * 1000,
        displayToken: displayToken ?? null,
      }),
    [
      mode,
      privateKey,
      displayToken,
      pricingModel,
      kioskPreviewSize,
      miniAlbumPreviewSize,
      allowDelete,
      timeoutSeconds,
    ],
  );

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('attendees.kiosk.title')}
        </Title>
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('attendees.kiosk.mode')}
            value={mode}
            allowDeselect={false}
            onChange={(value) => setMode(value === 'evSB1' ? 'evSB1' : 'evSB2')}
            data={[
              { value: 'evSB2', label: t('attendees.kiosk.preselected') },
              { value: 'evSB1', label: t('attendees.kiosk.allPhotos') },
            ]}
          />
          <TextInput
            label={t('attendees.kiosk.pricingModel')}
            value={pricingModel}
            maxLength={100}
            onChange={(e) => setPricingModel(e.currentTarget.value)}
          />
          <NumberInput
            label={t('attendees.kiosk.kioskPreviewSize')}
            value={kioskPreviewSize}
            min={1}
            max={10000}
            onChange={(v) => setKioskPreviewSize(typeof v === 'number' ? v : '')}
          />
          <NumberInput
            label={t('attendees.kiosk.miniAlbumPreviewSize')}
            value={miniAlbumPreviewSize}
            min={1}
            max={10000}
            onChange={(v) => setMiniAlbumPreviewSize(typeof v === 'number' ? v : '')}
          />
          <NumberInput
            label={t('attendees.kiosk.timeout')}
            placeholder={t('attendees.kiosk.timeoutFromEvent')}
            value={timeoutSeconds}
            min={3}
            max={3600}
            onChange={(v) => setTimeoutSeconds(typeof v === 'number' ? v : '')}
          />
          <Checkbox
            label={t('attendees.kiosk.allowDelete')}
            checked={allowDelete}
            onChange={(e) => setAllowDelete(e.currentTarget.checked)}
          />
        </Group>
        <Text size="sm" style={{ wordBreak: 'break-all' }} data-testid="kiosk-entry-link">
          {link}
        </Text>
        <Group gap="xs">
          <Button component="a" href={link} target="_blank" rel="noreferrer" variant="default">
            {t('attendees.kiosk.open')}
          </Button>
          <Button component="a" href={`${link}&download=1`} variant="default">
            {t('attendees.kiosk.download')}
          </Button>
          <Button onClick={() => setSheetOpen(true)} disabled={attendees.length === 0}>
            {t('attendees.kiosk.printCards')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {t('attendees.kiosk.keyNote')}
        </Text>
      </Stack>
      <Modal
        opened={sheetOpen}
        onClose={() => setSheetOpen(false)}
        title={t('attendees.kiosk.printCards')}
        size="xl"
      >
        <Stack>
          <Button onClick={() => window.print()}>{t('attendees.kiosk.print')}</Button>
          <SimpleGrid cols={3} className="kiosk-card-sheet">
            {attendees.map((a) => (
              <CardQr key={a.uid} attendee={a} />
            ))}
          </SimpleGrid>
        </Stack>
      </Modal>
    </Paper>
  );
}

/**
 * One kiosk card: it shows, and its QR encodes, what the kiosk entry page accepts — the card code
 * (the private id) and an attId link with it; never the album id.
 */
function CardQr({ attendee }: { attendee: Attendee }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  const code = attendee.private_id ? kioskCardText(attendee.private_id) : null;
  const text = attendee.private_id
    ? kioskCardLink(window.location.origin, attendee.private_id)
    : null;
  useEffect(() => {
    let current = true;
    if (!text) return;
    QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'H', margin: 2, width: 180 })
      .then((svg) => {
        if (current) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [text]);
  if (!code) return null;
  return (
    <Stack gap={2} align="center" data-testid={`kiosk-card-${code}`}>
      {src && <img src={src} width={180} height={180} alt={t('attendees.kiosk.cardQr')} />}
      <Text size="xs" c="dimmed" tt="uppercase">
        {t('attendees.kiosk.cardCode')}
      </Text>
      <Text size="lg" fw={700} ff="monospace">
        {code}
      </Text>
    </Stack>
  );
}
