import { useState } from 'react';
import { ActionIcon, Button, Group, Menu } from '@mantine/core';
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
import { insightPathFor } from '../../../../lib/insight-path.ts';
import { SharePanel } from './share-panel.tsx';
import { Icon } from '../../../../design/icons.tsx';
import { icon } from '../../../../design/tokens.ts';

/** The console pages of one event, in the menu's order (their label keys under `events.list`). */
const EVENT_PAGES = [
  { key: 'photos', pathFor: albumPathFor },
  { key: 'insight', pathFor: insightPathFor },
  { key: 'attendees', pathFor: attendeesPathFor },
  { key: 'orders', pathFor: ordersPathFor },
  { key: 'messages', pathFor: outboxPathFor },
  { key: 'leads', pathFor: leadsPathFor },
  { key: 'moderation', pathFor: moderationPathFor },
] as const;

const SCREENS: readonly {
  kind: AlbumLinkKind;
  label: 'kioskAlbum' | 'kioskStream' | 'slideShow';
}[] = [
  { kind: 'kioskAlbum', label: 'kioskAlbum' },
  { kind: 'kioskStream', label: 'kioskStream' },
  { kind: 'slideShow', label: 'slideShow' },
];

/**
 * Per-event actions of the list (owner-console §2): one primary action, Edit, then Share, and a
 * menu with the event's console pages, its kiosk and slide-show screens and the copied album link.
 */
export function EventListActions({ event, onEdit }: { event: BasicEvent; onEdit: () => void }) {
  const { t } = useTranslation();
  const name = event.full_name;
  // The kiosk stream is a screen of its own only where the event offers it (opts.kioskStreamEnabled,
  // which needs lead collection, albums spec §4): otherwise the menu has no link to it.
  const screens = SCREENS.filter(
    ({ kind }) => kind !== 'kioskStream' || event.kiosk_stream_enabled,
  );
  const [shareOpen, setShareOpen] = useState(false);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(albumLink(event.public_api_key, 'public'));
      notifications.show({ color: 'green', message: t('events.list.linkCopied', { name }) });
    } catch {
      notifications.show({ color: 'red', message: t('events.list.linkNotCopied') });
    }
  };

  return (
    <Group gap={6} wrap="nowrap">
      <Button size="compact-sm" onClick={onEdit} aria-label={t('events.list.editNamed', { name })}>
        {t('events.list.edit')}
      </Button>
      <Button
        size="compact-sm"
        variant="default"
        onClick={() => setShareOpen(true)}
        aria-label={t('events.list.shareNamed', { name })}
      >
        {t('events.list.share')}
      </Button>
      <Menu position="bottom-end" withinPortal shadow="md" width={220}>
        <Menu.Target>
          <ActionIcon
            variant="default"
            size={26}
            aria-label={t('events.list.moreNamed', { name })}
            data-testid="event-row-menu"
          >
            <Icon name="more" size={icon.console} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{t('events.list.pages')}</Menu.Label>
          {EVENT_PAGES.map(({ key, pathFor }) => (
            <Menu.Item
              key={key}
              component={Link}
              to={pathFor(event.name)}
              aria-label={t(`events.list.${key}Named`, { name })}
            >
              {t(`events.list.${key}`)}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Label>{t('events.list.screens')}</Menu.Label>
          {screens.map(({ kind, label }) => (
            <Menu.Item
              key={kind}
              component="a"
              href={albumLink(
                event.public_api_key,
                kind,
                window.location.origin,
                event.display_token,
              )}
              target="_blank"
              rel="noopener"
              aria-label={t(`events.list.${label}Named`, { name })}
            >
              {t(`events.list.${label}`)}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item
            onClick={() => void copyLink()}
            aria-label={t('events.list.copyLinkNamed', { name })}
          >
            {t('events.list.copyLink')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {shareOpen && <SharePanel event={event} onClose={() => setShareOpen(false)} />}
    </Group>
  );
}
