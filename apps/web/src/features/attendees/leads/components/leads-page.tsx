import { useMemo, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FlashbulbEvent, Lead } from '@flashbulb/shared';
import { CARD_TABLE } from '../../../../components/card-table.ts';
import { RouteEventGate } from '../../../../components/event-page-state.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { downloadText } from '../../../../lib/download-text.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { deleteLeads, exportLeads, leadsQueryKey, useLeads } from '../api/leads-api.ts';
import { EventPageHeader } from '../../../../components/event-page-header.tsx';

/** Whether a lead matches the search words (each word in name, e-mail, company or phone). */
export const leadMatches = (lead: Lead, query: string): boolean => {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [lead.full_name, lead.email, lead.company_name ?? '', lead.phone ?? '']
    .join(' ')
    .toLowerCase();
  const digits = text.replace(/\D/g, '');
  return words.every(
    (w) => text.includes(w) || (/\d/.test(w) && digits.includes(w.replace(/\D/g, ''))),
  );
};

/**
 * `/events/:code/leads`: the leads the album gate collected — search, export
 * as CSV (built by the server, formula-safe), delete on a guest's request. The server decides
 * who may see them (those who manage the event); text is shown as text.
 */
export default function LeadsPage() {
  return <RouteEventGate texts="leads" page={EventLeads} />;
}

function EventLeads({ event }: { event: FlashbulbEvent }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const list = useLeads(event.id);
  const [query, setQuery] = useState('');
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState<Lead | null>(null);
  const [busy, setBusy] = useState(false);
  const leads = list.data?.leads;
  const shown = useMemo(() => (leads ?? []).filter((l) => leadMatches(l, query)), [leads, query]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { file_name, csv } = await exportLeads(event.id);
      downloadText(file_name, csv);
      notifications.show({
        color: 'green',
        message: t('leads.exported', { count: leads?.length ?? 0 }),
      });
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(errorKeyOf(error)) });
    } finally {
      setExporting(false);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteLeads(event.id, [deleting.id]);
      notifications.show({ color: 'green', message: t('leads.deleted') });
      setDeleting(null);
      await client.invalidateQueries({ queryKey: leadsQueryKey(event.id) });
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(errorKeyOf(error)) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm">
      <EventPageHeader
        backLabel={t('leads.backToEvents')}
        title={t('leads.title', { name: event.full_name || event.name })}
        subtitle={t('leads.hint')}
        actions={
          <Group gap="xs" align="flex-end">
            <TextInput
              label={t('leads.search')}
              placeholder={t('leads.searchPlaceholder')}
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
              type="search"
            />
            <Button
              onClick={() => void exportCsv()}
              loading={exporting}
              disabled={!leads || leads.length === 0}
            >
              {t('leads.export')}
            </Button>
          </Group>
        }
      />
      {event.collect_leads !== 1 && (
        <Alert color="gray" variant="light" data-testid="leads-not-collecting">
          <Text size="sm">{t('leads.notCollecting')}</Text>
          <Anchor component={Link} to={`/events#ename=${event.name}`} size="sm">
            {t('leads.openEditor')}
          </Anchor>
        </Alert>
      )}
      {list.isError && !leads ? (
        <Alert color="red" role="alert">
          {errorText(errorKeyOf(list.error))}
        </Alert>
      ) : !leads ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('app.loading')} />
        </Group>
      ) : leads.length === 0 ? (
        <Text c="dimmed" ta="center" p="xl">
          {t('leads.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('leads.count', { shown: shown.length, total: leads.length })}
          </Text>
          {shown.length === 0 ? (
            <Text c="dimmed" ta="center" p="xl">
              {t('leads.noMatch', { query: query.trim() })}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={900} className={CARD_TABLE.scroll}>
              <Table
                className={CARD_TABLE.table}
                striped
                aria-label={t('leads.tableLabel')}
                verticalSpacing="xs"
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('leads.columns.name')}</Table.Th>
                    <Table.Th>{t('leads.columns.email')}</Table.Th>
                    <Table.Th>{t('leads.columns.company')}</Table.Th>
                    <Table.Th>{t('leads.columns.phone')}</Table.Th>
                    <Table.Th>{t('leads.columns.consent')}</Table.Th>
                    <Table.Th>{t('leads.columns.created')}</Table.Th>
                    <Table.Th>{t('leads.columns.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((l) => (
                    <Table.Tr key={l.id} data-testid="lead-row">
                      <Table.Td data-label={t('leads.columns.name')}>{l.full_name}</Table.Td>
                      <Table.Td
                        data-label={t('leads.columns.email')}
                        style={{ wordBreak: 'break-all' }}
                      >
                        {l.email}
                      </Table.Td>
                      <Table.Td data-label={t('leads.columns.company')}>
                        {l.company_name ?? '—'}
                      </Table.Td>
                      <Table.Td data-label={t('leads.columns.phone')}>{l.phone ?? '—'}</Table.Td>
                      <Table.Td data-label={t('leads.columns.consent')}>
                        <Text size="sm" title={l.consent_text ?? undefined}>
                          {l.consented_date
                            ? t('leads.consentAt', {
                                date: new Date(l.consented_date).toLocaleString(),
                                version: l.consent_version ?? '',
                              })
                            : t('leads.noConsent')}
                        </Text>
                      </Table.Td>
                      <Table.Td data-label={t('leads.columns.created')}>
                        {new Date(l.created_date).toLocaleString()}
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="compact-sm"
                          variant="light"
                          color="red"
                          onClick={() => setDeleting(l)}
                          aria-label={t('leads.deleteNamed', { name: l.full_name })}
                        >
                          {t('leads.delete')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('leads.confirmTitle')}
      >
        {deleting && (
          <Stack gap="sm">
            <Text size="sm">
              {t('leads.confirmText', { name: deleting.full_name, email: deleting.email })}
            </Text>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {t('leads.cancel')}
              </Button>
              <Button color="red" loading={busy} onClick={() => void confirmDelete()}>
                {t('leads.confirm')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
