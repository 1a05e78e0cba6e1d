import { useState } from 'react';
import { Anchor, Button, Group, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { BasicEvent } from '@flashbulb/shared';
import { Link } from 'react-router';
import { albumLink, type AlbumLinkKind } from '../../../../lib/album-links.ts';
import { albumPathFor } from '../../../../lib/album-path.ts';
import { attendeesPathFor } from '../../../../lib/attendees-path.ts';
import { leadsPathFor } from '../../../../lib/leads-path.ts';
import { moderationPathFor } from '../../../../lib/moderation-path.ts';
import { outboxPathFor } from '../../../../lib/outbox-path.ts';
import { ordersPathFor } from '../../../../lib/orders-path.ts';
import { EventLinksModal } from './event-links-modal.tsx';

/** The console pages of one event, in the list's order (their label keys under `events.list`). */
const EVENT_PAGES = [
  { key: 'photos', pathFor: albumPathFor },
  { key: 'attendees', pathFor: attendeesPathFor },
  { key: 'orders', pathFor: ordersPathFor },
  { key: 'messages', pathFor: outboxPathFor },
  { key: 'leads', pathFor: leadsPathFor },
  { key: 'moderation', pathFor: moderationPathFor },
] as const;

/** Per-event actions of the list (owner-console §2): edit, kiosk album and stream, slide show, copy link. */
export function EventListActions({ event, onEdit }: { event: BasicEvent; onEdit: () => void }) {
  const { t } = useTranslation();
  const name = event.full_name;
  // Albums spec §4: the kiosk stream needs lead collection.
  const streamDisabled = event.collect_leads === 0;
  const [linksOpen, setLinksOpen] = useState(false);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(albumLink(event.public_api_key, 'public'));
      notifications.show({ color: 'green', message: t('events.list.linkCopied', { name }) });
    } catch {
      notifications.show({ color: 'red', message: t('events.list.linkNotCopied') });
    }
  };

  return (
    <Group gap={6} wrap="wrap">
      <Button size="compact-sm" onClick={onEdit} aria-label={t('events.list.editNamed', { name })}>
        {t('events.list.edit')}
      </Button>
      {EVENT_PAGES.map(({ key, pathFor }) => (
        <Button
          key={key}
          size="compact-sm"
          variant="light"
          component={Link}
          to={pathFor(event.name)}
          aria-label={t(`events.list.${key}Named`, { name })}
        >
          {t(`events.list.${key}`)}
        </Button>
      ))}
      <AlbumAnchor event={event} kind="kioskAlbum" label="kioskAlbum" />
      {streamDisabled ? (
        <Tooltip label={t('events.list.kioskStreamNeedsLeads')}>
          <Button
            size="compact-sm"
            variant="subtle"
            disabled
            aria-label={t('events.list.kioskStreamNamed', { name })}
          >
            {t('events.list.kioskStream')}
          </Button>
        </Tooltip>
      ) : (
        <AlbumAnchor event={event} kind="kioskStream" label="kioskStream" />
      )}
      <AlbumAnchor event={event} kind="slideShow" label="slideShow" />
      <Button
        size="compact-sm"
        variant="default"
        onClick={() => void copyLink()}
        aria-label={t('events.list.copyLinkNamed', { name })}
      >
        {t('events.list.copyLink')}
      </Button>
      <Button
        size="compact-sm"
        variant="default"
        onClick={() => setLinksOpen(true)}
        aria-label={t('events.list.linksNamed', { name })}
      >
        {t('events.list.links')}
      </Button>
      {linksOpen && <EventLinksModal event={event} onClose={() => setLinksOpen(false)} />}
    </Group>
  );
}

/** A link to one of the event's album pages, opened in a new tab. */
function AlbumAnchor({
  event,
  kind,
  label,
}: {
  event: BasicEvent;
  kind: AlbumLinkKind;
  label: 'kioskAlbum' | 'kioskStream' | 'slideShow';
}) {
  const { t } = useTranslation();
  return (
    <Anchor
      size="sm"
      href={albumLink(event.public_api_key, kind, window.location.origin, event.display_token)}
      target="_blank"
      rel="noopener"
      aria-label={t(`events.list.${label}Named`, { name: event.full_name })}
    >
      {t(`events.list.${label}`)}
    </Anchor>
  );
}
