import { useEffect, useState } from 'react';
import {
  Accordion,
  Alert,
  Anchor,
  Button,
  Card,
  CopyButton,
  Group,
  Image,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import {
  EVENT_LIMITS,
  eventPageLinks,
  kioskEntryUrl,
  type BasicEvent,
  type EventPageKind,
} from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEventFullData } from '../api/events-api.ts';
import { saveHref } from '../../../../lib/download-text.ts';

/** The named cards, in the order an operator hands them out. */
export const SHARE_CARDS = [
  'guestAlbum',
  'kiosk',
  'slideShow',
  'liveWall',
  'webApp',
  'roamer',
  'entry',
] as const;
export type ShareCard = (typeof SHARE_CARDS)[number];

/** The pages of the card-less kinds, under "More links". */
const MORE_KINDS: readonly EventPageKind[] = [
  'private',
  'curation',
  'kioskStream',
  'qrRide',
  'allPhotosKiosk',
];

/** Print and screen QR codes: error correction H; the PNG at the event QR's 1000 px (albums §9). */
const QR_OPTIONS = { errorCorrectionLevel: 'H', margin: 4 } as const;
/** The QR on a card: big enough to scan off the screen. */
const CARD_QR_PX = 112;

/** The link of each card, from the event's stored keys (never typed by hand). */
export const shareLinks = (
  origin: string,
  event: {
    name: string;
    publicKey: string;
    privateKey: string;
    ownerKey: string;
    displayToken?: string;
  },
): { cards: Record<ShareCard, string>; more: Record<EventPageKind, string> } => {
  const pages = eventPageLinks(origin, event);
  return {
    cards: {
      guestAlbum: pages.public,
      kiosk: pages.kioskAlbum,
      slideShow: pages.slideShow,
      liveWall: pages.photoStream,
      webApp: pages.webApp,
      roamer: pages.roamer,
      entry: kioskEntryUrl(origin, {
        mode: 'evSB1',
        privateKey: event.privateKey,
        pricingModel: null,
        kioskPreviewSize: null,
        miniAlbumPreviewSize: null,
        allowKioskPhotoDelete: false,
        // No timeout in the link: the kiosk uses the event's session expiry.
        pageActiveTimeoutMs: null,
        ...(event.displayToken ? { displayToken: event.displayToken } : {}),
      }),
    },
    more: pages,
  };
};

const svgDataUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/**
 * The event's Share panel: one card per page a guest, kiosk or screen opens, each with its link,
 * copy, open, its QR code on the card (PNG 1000 px and SVG, level H) and a printable poster.
 * The rarer links (private album, curation, kiosk stream, QR ride, all-photos kiosk) sit under
 * "More links".
 */
export function SharePanel({ event, onClose }: { event: BasicEvent; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const phone = useMediaQuery('(max-width: 48em)');
  const full = useEventFullData(event.name);
  const links = full.data
    ? shareLinks(window.location.origin, {
        name: full.data.name,
        publicKey: full.data.public_api_key,
        privateKey: full.data.private_api_key,
        ownerKey: full.data.owner_api_key,
        ...(full.data.display_token ? { displayToken: full.data.display_token } : {}),
      })
    : null;

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      fullScreen={phone}
      title={t('events.share.title', { name: event.full_name })}
    >
      {full.error && <Alert color="red">{errorText(errorKeyOf(full.error))}</Alert>}
      {!links && !full.error && <Skeleton height={240} />}
      {links && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            {SHARE_CARDS.map((card) => (
              <ShareLinkCard
                key={card}
                card={card}
                url={links.cards[card]}
                eventTitle={event.full_name}
                fileStem={`${event.name}-${card}`}
              />
            ))}
          </SimpleGrid>
          <Accordion variant="contained">
            <Accordion.Item value="more">
              <Accordion.Control>{t('events.share.more')}</Accordion.Control>
              <Accordion.Panel>
                <Stack gap="xs">
                  {MORE_KINDS.filter(
                    // The kiosk stream only where the event offers it (opts.kioskStreamEnabled).
                    (kind) => kind !== 'kioskStream' || event.kiosk_stream_enabled,
                  ).map((kind) => (
                    <Group
                      key={kind}
                      justify="space-between"
                      wrap="nowrap"
                      gap="xs"
                      data-testid={`event-link-${kind}`}
                    >
                      <Stack gap={0} style={{ minWidth: 0 }}>
                        <Text size="sm" fw={500}>
                          {t(`events.links.kinds.${kind}`)}
                        </Text>
                        <Text
                          size="xs"
                          c="dimmed"
                          style={{ wordBreak: 'break-all' }}
                          data-testid="event-link-url"
                        >
                          {links.more[kind]}
                        </Text>
                      </Stack>
                      <Group gap={4} wrap="nowrap">
                        <CopyButton value={links.more[kind]}>
                          {({ copied, copy }) => (
                            <Button size="compact-sm" variant="light" onClick={copy}>
                              {copied ? t('events.share.copied') : t('events.share.copy')}
                            </Button>
                          )}
                        </CopyButton>
                        <Button
                          size="compact-sm"
                          variant="default"
                          component="a"
                          href={links.more[kind]}
                          target="_blank"
                          rel="noopener"
                        >
                          {t('events.share.open')}
                        </Button>
                      </Group>
                    </Group>
                  ))}
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        </Stack>
      )}
    </Modal>
  );
}

function ShareLinkCard({
  card,
  url,
  eventTitle,
  fileStem,
}: {
  card: ShareCard;
  url: string;
  eventTitle: string;
  fileStem: string;
}) {
  const { t } = useTranslation();
  const title = t(`events.share.cards.${card}.title`);
  const [made, setMade] = useState<{ url: string; svg: string } | null>(null);
  const svg = made?.url === url ? made.svg : null;
  useEffect(() => {
    let current = true;
    QRCode.toString(url, { ...QR_OPTIONS, type: 'svg' })
      .then((text) => {
        if (current) setMade({ url, svg: text });
      })
      .catch(() => {
        // A link is far below a QR code's capacity; the link itself is shown anyway.
      });
    return () => {
      current = false;
    };
  }, [url]);

  const downloadPng = async () => {
    const png = await QRCode.toDataURL(url, { ...QR_OPTIONS, width: EVENT_LIMITS.eventQrSize });
    saveHref(png, `${fileStem}-qr.png`);
  };
  const downloadSvg = () => {
    if (svg) saveHref(svgDataUrl(svg), `${fileStem}-qr.svg`);
  };
  const poster = () => {
    if (svg) printPoster({ eventTitle, title, url, qr: svgDataUrl(svg) });
  };

  return (
    <Card withBorder radius="md" padding="sm" data-testid={`share-card-${card}`}>
      <Group align="flex-start" wrap="nowrap" gap="sm">
        {svg ? (
          <Image
            src={svgDataUrl(svg)}
            alt={t('events.share.qrAlt', { label: title })}
            w={CARD_QR_PX}
            h={CARD_QR_PX}
            style={{ flexShrink: 0 }}
            data-testid="share-qr"
          />
        ) : (
          <Skeleton width={CARD_QR_PX} height={CARD_QR_PX} style={{ flexShrink: 0 }} />
        )}
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600}>{title}</Text>
          <Text size="xs" c="dimmed">
            {t(`events.share.cards.${card}.hint`)}
          </Text>
          <Anchor
            size="xs"
            href={url}
            target="_blank"
            rel="noopener"
            style={{ wordBreak: 'break-all' }}
            data-testid="share-url"
          >
            {url}
          </Anchor>
        </Stack>
      </Group>
      <Group gap={6} mt="sm" wrap="wrap">
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button size="compact-sm" onClick={copy}>
              {copied ? t('events.share.copied') : t('events.share.copy')}
            </Button>
          )}
        </CopyButton>
        <Button
          size="compact-sm"
          variant="default"
          component="a"
          href={url}
          target="_blank"
          rel="noopener"
          aria-label={t('events.share.openNamed', { label: title })}
        >
          {t('events.share.open')}
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => void downloadPng()}
          aria-label={t('events.share.pngNamed', { label: title })}
        >
          {t('events.share.png')}
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={downloadSvg}
          disabled={!svg}
          aria-label={t('events.share.svgNamed', { label: title })}
        >
          {t('events.share.svg')}
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={poster}
          disabled={!svg}
          aria-label={t('events.share.posterNamed', { label: title })}
        >
          {t('events.share.poster')}
        </Button>
      </Group>
    </Card>
  );
}

/**
 * A print-friendly page in a new window: the event's name, the page's name, its QR code and the
 * link, then the browser's print dialog. Built with DOM text nodes, so names are never markup.
 */
const printPoster = ({
  eventTitle,
  title,
  url,
  qr,
}: {
  eventTitle: string;
  title: string;
  url: string;
  qr: string;
}) => {
  const win = window.open('', '_blank');
  if (!win) return;
  const doc = win.document;
  doc.title = `${eventTitle} — ${title}`;
  const style = doc.createElement('style');
  style.textContent = [
    '@page { size: A4; margin: 18mm; }',
    'body { font-family: system-ui, sans-serif; text-align: center; color: #111; margin: 0; }',
    'h1 { font-size: 32pt; margin: 10mm 0 4mm; }',
    'h2 { font-size: 18pt; font-weight: 500; margin: 0 0 10mm; color: #444; }',
    'img { width: 120mm; height: 120mm; }',
    'p { font-size: 11pt; word-break: break-all; margin: 8mm 10mm 0; }',
  ].join('\n');
  const heading = doc.createElement('h1');
  heading.textContent = eventTitle;
  const sub = doc.createElement('h2');
  sub.textContent = title;
  const img = doc.createElement('img');
  img.src = qr;
  img.alt = title;
  const link = doc.createElement('p');
  link.textContent = url;
  doc.head.append(style);
  doc.body.append(heading, sub, img, link);
  img.onload = () => win.print();
};
