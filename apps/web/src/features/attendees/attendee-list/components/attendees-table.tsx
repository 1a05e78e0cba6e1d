import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Attendee } from '@flashbulb/shared';
import { albumPathFor } from '../../../../lib/album-path.ts';

const formatDateTime = (iso: string, locale: string): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

/** Album links come from the server (built on an owner's URL prefix): only web links become hrefs. */
const webHref = (url: string): string | undefined => (/^https?:\/\//i.test(url) ? url : undefined);

/**
 * The attendees of one table page with their row actions: copy or open the album link, the
 * attendee's photos in the console album (where they can be removed), lock or reopen, and a
 * privacy request (export or erase their data).
 */
export function AttendeesTable({
  eventCode,
  attendees,
  onLock,
  onPrivacy,
}: {
  eventCode: string;
  attendees: Attendee[];
  onLock: (attendee: Attendee) => void;
  /** Export or erase the attendee's data (a privacy request). */
  onPrivacy: (attendee: Attendee) => void;
}) {
  const { t, i18n } = useTranslation();
  const yesNo = (flag: 0 | 1) => (flag ? t('attendees.yes') : t('attendees.no'));

  const copyLink = async (attendee: Attendee) => {
    const id = attendee.display_uid;
    try {
      await navigator.clipboard.writeText(attendee.album_url);
      notifications.show({ color: 'green', message: t('attendees.actions.linkCopied', { id }) });
    } catch {
      notifications.show({ color: 'red', message: t('attendees.actions.linkNotCopied') });
    }
  };

  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped highlightOnHover aria-label={t('attendees.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('attendees.columns.id')}</Table.Th>
            <Table.Th>{t('attendees.columns.privateId')}</Table.Th>
            <Table.Th>{t('attendees.columns.email')}</Table.Th>
            <Table.Th>{t('attendees.columns.prepaid')}</Table.Th>
            <Table.Th>{t('attendees.columns.locked')}</Table.Th>
            <Table.Th>{t('attendees.columns.expires')}</Table.Th>
            <Table.Th ta="right">{t('attendees.columns.photos')}</Table.Th>
            <Table.Th>{t('attendees.columns.created')}</Table.Th>
            <Table.Th>{t('attendees.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attendees.map((attendee) => {
            const id = attendee.display_uid;
            return (
              <Table.Tr key={attendee.id}>
                <Table.Td>
                  <Text size="sm" ff="monospace" fw={600}>
                    {id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {attendee.private_id ?? t('attendees.none')}
                  </Text>
                </Table.Td>
                <Table.Td>{attendee.email ?? t('attendees.none')}</Table.Td>
                <Table.Td>{yesNo(attendee.is_prepaid)}</Table.Td>
                <Table.Td>
                  {attendee.is_locked ? (
                    <Badge color="red" variant="light">
                      {t('attendees.yes')}
                    </Badge>
                  ) : (
                    t('attendees.no')
                  )}
                </Table.Td>
                <Table.Td>
                  {attendee.expires_date
                    ? formatDateTime(attendee.expires_date, i18n.language)
                    : t('attendees.never')}
                </Table.Td>
                <Table.Td ta="right">{attendee.photo_count}</Table.Td>
                <Table.Td>{formatDateTime(attendee.created_date, i18n.language)}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="default"
                      onClick={() => void copyLink(attendee)}
                      aria-label={t('attendees.actions.copyLinkNamed', { id })}
                    >
                      {t('attendees.actions.copyLink')}
                    </Button>
                    <Anchor
                      size="sm"
                      href={webHref(attendee.album_url)}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={t('attendees.actions.openNamed', { id })}
                    >
                      {t('attendees.actions.open')}
                    </Anchor>
                    <Anchor
                      size="sm"
                      component={Link}
                      to={albumPathFor(eventCode, `ai=${encodeURIComponent(attendee.uid)}`)}
                      aria-label={t('attendees.actions.photosNamed', { id })}
                    >
                      {t('attendees.actions.photos')}
                    </Anchor>
                    <Button
                      size="compact-sm"
                      variant="light"
                      color={attendee.is_locked ? undefined : 'red'}
                      onClick={() => onLock(attendee)}
                      aria-label={
                        attendee.is_locked
                          ? t('attendees.actions.reopenNamed', { id })
                          : t('attendees.actions.lockNamed', { id })
                      }
                    >
                      {attendee.is_locked
                        ? t('attendees.actions.reopen')
                        : t('attendees.actions.lock')}
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      onClick={() => onPrivacy(attendee)}
                      aria-label={t('attendees.actions.privacyNamed', { id })}
                    >
                      {t('attendees.actions.privacy')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
