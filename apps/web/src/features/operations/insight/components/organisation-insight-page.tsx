import { useState } from 'react';
import { Group, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Role } from '@flashbulb/shared';
import type { SessionUser } from '../../../../lib/session-store.ts';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useInsightOrganisations, useOrganisationInsight } from '../api/insight-api.ts';
import { InsightDashboard } from './insight-dashboard.tsx';

/**
 * The organisation's Insight page (`/insight`): every event added up, one row per event. Admins
 * see their organisation; super users choose one (their own first).
 */
export default function OrganisationInsightPage({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const isSuper = user.role === Role.SUPER_USER;
  const organisations = useInsightOrganisations(isSuper);
  const [chosen, setChosen] = useState<number | null>(user.organisation_id);
  const first = organisations.data?.[0]?.id ?? null;
  const organisationId = isSuper ? (chosen ?? first) : null;
  const insight = useOrganisationInsight(organisationId, !isSuper || organisationId !== null);
  const name =
    (isSuper ? organisations.data?.find((o) => o.id === organisationId)?.name : null) ??
    user.organisation_name ??
    t('insight.organisationFallback');

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2}>{t('insight.organisationTitle', { name })}</Title>
        {isSuper && organisations.data && (
          <Select
            aria-label={t('insight.organisation')}
            data={organisations.data.map((o) => ({ value: String(o.id), label: o.name }))}
            value={organisationId === null ? null : String(organisationId)}
            onChange={(value) => setChosen(value ? Number(value) : null)}
            allowDeselect={false}
            w={240}
          />
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {t('insight.privacy')}
      </Text>
      <InsightDashboard
        insight={insight.data}
        events={insight.data?.events}
        fileCode={`org-${organisationId ?? user.organisation_id ?? 'own'}`}
        error={insight.isError ? errorText(errorKeyOf(insight.error)) : null}
      />
    </Stack>
  );
}
