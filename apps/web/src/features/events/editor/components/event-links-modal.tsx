import { useEffect, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Group,
  Image,
  Modal,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import {
  EVENT_LIMITS,
  EVENT_PAGE_KINDS,
  eventPageLinks,
  type BasicEvent,
  type EventPageKind,
} from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEventFullData } from '../api/events-api.ts';

/**
 * Every page an operator hands out for the event (albums spec §2.1): copy, open, and a printable
 * QR code (1000 px, error correction H). Links come from the shared `eventPageLinks` over the
 * event's stored keys (the curation key from the event's full data), never typed by hand.
 */
export function EventLinksModal({ event, onClose }: { event: BasicEvent; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const full = useEventFullData(event.name);
  const [qrFor, setQrFor] = useState<EventPageKind | null>(null);
  const links = full.data
    ? eventPageLinks(window.location.origin, {
        name: full.data.name,
        publicKey: full.data.public_api_key,
        privateKey: full.data.private_api_key,
        ownerKey: full.data.owner_api_key,
        displayToken: full.data.display_token,
      })
    : null;

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('events.links.title', { name: event.full_name })}
    >
      {full.error && <Alert color="red">{errorText(errorKeyOf(full.error))}</Alert>}
      {!links && !full.error && <Skeleton height={240} />}
      {links && (
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={340}>
            <Table verticalSpacing="xs">
              <Table.Tbody>
                {EVENT_PAGE_KINDS.map((kind) => (
                  <Table.Tr key={kind} data-testid={`event-link-${kind}`}>
                    <Table.Td>
                      <Text fw={500} size="sm">
                        {t(`events.links.kinds.${kind}`)}
                      </Text>
                      <Text
                        size="xs"
                        c="dimmed"
                        style={{ wordBreak: 'break-all' }}
                        data-testid="event-link-url"
                      >
                        {links[kind]}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <CopyButton value={links[kind]}>
                          {({ copied, copy }) => (
                            <Button size="compact-sm" variant="light" onClick={copy}>
                              {copied ? t('events.links.copied') : t('events.links.copy')}
                            </Button>
                          )}
                        </CopyButton>
                        <Button
                          size="compact-sm"
                          variant="default"
                          component="a"
                          href={links[kind]}
                          target="_blank"
                          rel="noopener"
                        >
                          {t('events.links.open')}
                        </Button>
                        <Button size="compact-sm" variant="default" onClick={() => setQrFor(kind)}>
                          {t('events.links.qr')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {qrFor && (
            <LinkQr
              url={links[qrFor]}
              label={t(`events.links.kinds.${qrFor}`)}
              fileName={`${event.name}-${qrFor}-qr.png`}
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}

/** The QR code of one link: PNG, 1000 px, level H (the event QR of albums spec §9); print or save. */
function LinkQr({ url, label, fileName }: { url: string; label: string; fileName: string }) {
  const { t } = useTranslation();
  const [made, setMade] = useState<{ url: string; png: string } | null>(null);
  const png = made?.url === url ? made.png : null;
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(url, {
      errorCorrectionLevel: 'H',
      width: EVENT_LIMITS.eventQrSize,
      margin: 4,
    })
      .then((data) => {
        if (current) setMade({ url, png: data });
      })
      .catch(() => {
        // A link is far below QR capacity; it is still shown as text above.
      });
    return () => {
      current = false;
    };
  }, [url]);

  const print = () => {
    if (!png) return;
    const win = window.open('', '_blank');
    if (!win) return;
    const doc = win.document;
    doc.title = label;
    const img = doc.createElement('img');
    img.src = png;
    img.alt = label;
    img.style.width = '100%';
    img.style.maxWidth = '1000px';
    const caption = doc.createElement('p');
    caption.textContent = url;
    doc.body.append(img, caption);
    img.onload = () => win.print();
  };

  return (
    <Stack gap="xs" align="center" data-testid="event-link-qr">
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {png ? (
        <Image src={png} alt={t('events.links.qrAlt', { label })} w={240} h={240} />
      ) : (
        <Skeleton width={240} height={240} />
      )}
      <Group gap="xs">
        <Button size="compact-sm" onClick={print} disabled={!png}>
          {t('events.links.print')}
        </Button>
        <Anchor size="sm" href={png ?? undefined} download={fileName}>
          {t('events.links.download')}
        </Anchor>
      </Group>
    </Stack>
  );
}
