import { useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  NavigationType,
  useLocation,
  useNavigate,
  useNavigationType,
  useSearchParams,
} from 'react-router';
import { useTranslation } from 'react-i18next';
import { eventCodeFromHash, Role, type BasicEvent, type User } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEventList } from '../api/events-api.ts';
import { useOrganisations } from '../api/catalog-api.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';
import { EventEditorModal, type EditorTarget } from './event-editor-modal.tsx';
import { EventListActions } from './event-list-actions.tsx';
import { NewEventWizard } from './new-event-wizard.tsx';
import { CARD_TABLE } from '../../../../components/card-table.ts';

export type VisibilityFilter = 'all' | 'visible' | 'hidden';
const FILTERS: readonly VisibilityFilter[] = ['all', 'visible', 'hidden'];
const FILTER_PARAM = 'show';

const filterOf = (value: string | null): VisibilityFilter =>
  FILTERS.find((f) => f === value) ?? 'all';

const matches = (event: BasicEvent, filter: VisibilityFilter, search: string): boolean => {
  if (filter === 'visible' && event.is_visible !== 1) return false;
  if (filter === 'hidden' && event.is_visible !== 0) return false;
  const needle = search.trim().toLowerCase();
  return (
    !needle ||
    event.full_name.toLowerCase().includes(needle) ||
    event.name.toLowerCase().includes(needle)
  );
};

/** Super users create in any organisation; others in their own (owner-console §6). */
export const canCreateEvents = (user: User): boolean =>
  user.role === Role.SUPER_USER || user.organisation_id !== null;

function ListSkeleton() {
  return (
    <Stack gap="xs" data-testid="events-loading">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} height={36} />
      ))}
    </Stack>
  );
}

/**
 * My events (owner-console §2): the basic list with a visibility filter (kept in the URL), search,
 * per-event links and the add/edit editor. `#ename=XXXX` opens that event's editor.
 */
export function EventsPage({ user }: { user: User }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const list = useEventList();
  const location = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  // "New event" opens the four steps; "All settings" there opens the full editor with their values.
  const [wizardOpen, setWizardOpen] = useState(false);
  const [adding, setAdding] = useState<{ initial: EventFormValues; uploadFolder: string } | null>(
    null,
  );
  const organisations = useOrganisations(user.role === Role.SUPER_USER && wizardOpen);
  const filter = filterOf(params.get(FILTER_PARAM));
  const code = eventCodeFromHash(location.hash);
  const canCreate = canCreateEvents(user);
  const navigationType = useNavigationType();

  // The editor of `#ename=` follows the hash — except that the browser's Back button does not
  // throw away unsaved changes: the hash is put back and the editor asks first.
  const [editing, setEditing] = useState<string | null>(code);
  const [dirty, setDirty] = useState(false);
  const [closeRequest, setCloseRequest] = useState(0);
  const [restore, setRestore] = useState<string | null>(null);
  const [seenCode, setSeenCode] = useState(code);
  if (code !== seenCode) {
    setSeenCode(code);
    if (code) {
      setEditing(code);
      setRestore(null);
    } else if (editing && dirty && navigationType === NavigationType.Pop) {
      setRestore(editing);
      setCloseRequest((n) => n + 1);
    } else {
      setEditing(null);
    }
  }
  useEffect(() => {
    if (restore) void navigate({ search: location.search, hash: `ename=${restore}` });
  }, [restore, navigate, location.search]);

  const target: EditorTarget | null = editing
    ? { mode: 'edit', code: editing }
    : adding
      ? { mode: 'add', initial: adding.initial, uploadFolder: adding.uploadFolder }
      : null;

  const setFilter = (value: string) => {
    const next = new URLSearchParams(params);
    if (value === 'all') next.delete(FILTER_PARAM);
    else next.set(FILTER_PARAM, value);
    setParams(next, { replace: true });
  };
  const openEditor = (event: BasicEvent) =>
    void navigate({ search: location.search, hash: `ename=${event.name}` });
  const closeEditor = () => {
    setDirty(false);
    setAdding(null);
    setEditing(null);
    if (code) void navigate({ search: location.search, hash: '' }, { replace: true });
  };

  const events = list.data?.events ?? [];
  const shown = events.filter((event) => matches(event, filter, search));

  let body;
  if (list.isPending) body = <ListSkeleton />;
  else if (list.isError)
    body = (
      <Alert color="red" role="alert" title={t('events.list.loadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorText(errorKeyOf(list.error))}</Text>
          <Button size="xs" onClick={() => void list.refetch()}>
            {t('events.list.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  else if (events.length === 0)
    body = (
      <Stack align="center" gap="sm" py="xl" data-testid="events-empty">
        <Text fw={600}>{t('events.list.noEvents')}</Text>
        {canCreate ? (
          <Button onClick={() => setWizardOpen(true)}>{t('events.list.addEvent')}</Button>
        ) : (
          <Text c="dimmed">{t('events.list.askAdministrator')}</Text>
        )}
      </Stack>
    );
  else if (shown.length === 0)
    body = (
      <Text c="dimmed" py="md" data-testid="events-no-match">
        {t('events.list.noMatch')}
      </Text>
    );
  else
    body = (
      <Table.ScrollContainer minWidth={640} className={CARD_TABLE.scroll}>
        <Table
          className={CARD_TABLE.table}
          striped
          highlightOnHover
          aria-label={t('events.list.title')}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('events.list.code')}</Table.Th>
              <Table.Th>{t('events.list.eventTitle')}</Table.Th>
              <Table.Th>{t('events.list.visibility')}</Table.Th>
              <Table.Th>{t('events.list.updated')}</Table.Th>
              <Table.Th>{t('events.list.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {/* On a phone each event is a card (card-table.css), its actions at the card's end. */}
            {shown.map((event) => (
              <Table.Tr key={event.id} data-testid="event-row">
                <Table.Td data-label={t('events.list.code')} ff="monospace">
                  {event.name}
                </Table.Td>
                <Table.Td data-label={t('events.list.eventTitle')}>{event.full_name}</Table.Td>
                <Table.Td data-label={t('events.list.visibility')}>
                  {/* Never squeezed into an ellipsis by the columns beside it. */}
                  <Badge
                    variant="light"
                    color={event.is_visible ? 'green' : 'gray'}
                    style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
                  >
                    {event.is_visible ? t('events.list.visible') : t('events.list.hidden')}
                  </Badge>
                </Table.Td>
                <Table.Td data-label={t('events.list.updated')}>
                  {event.updated_date.slice(0, 10)}
                </Table.Td>
                <Table.Td data-testid="event-row-actions">
                  <EventListActions event={event} onEdit={() => openEditor(event)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="events-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h4" id="events-title">
            {t('events.list.title')}
          </Title>
          {canCreate && events.length > 0 ? (
            <Button onClick={() => setWizardOpen(true)}>{t('events.list.addEvent')}</Button>
          ) : null}
        </Group>
        <Group gap="sm" wrap="wrap">
          <SegmentedControl
            aria-label={t('events.list.filter')}
            value={filter}
            onChange={setFilter}
            data={FILTERS.map((value) => ({ value, label: t(`events.list.filters.${value}`) }))}
          />
          <TextInput
            aria-label={t('events.list.search')}
            placeholder={t('events.list.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 200 }}
          />
        </Group>
        {body}
      </Stack>
      {wizardOpen ? (
        <NewEventWizard
          user={user}
          organisations={organisations.data ?? []}
          onClose={() => setWizardOpen(false)}
          onAdvanced={(initial, uploadFolder) => {
            setWizardOpen(false);
            setAdding({ initial, uploadFolder });
          }}
          onOpenEditor={(eventCode) => {
            setWizardOpen(false);
            void navigate({ search: location.search, hash: `ename=${eventCode}` });
          }}
        />
      ) : null}
      {target ? (
        <EventEditorModal
          key={target.mode === 'edit' ? target.code : 'add'}
          target={target}
          user={user}
          onClose={closeEditor}
          onDirtyChange={setDirty}
          closeRequest={closeRequest}
        />
      ) : null}
    </Card>
  );
}
