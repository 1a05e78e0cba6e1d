import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Role, type Organisation, type User } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  useCreateOrganisation,
  useOrganisations,
  useRenameOrganisation,
} from '../api/setup-api.ts';
import { formatDate } from './shown-once-key.tsx';
import { CARD_TABLE } from '../../../../components/card-table.ts';

/** The ISO 4217 codes the browser knows (every price of the organisation is in one of them). */
const CURRENCIES: string[] = Intl.supportedValuesOf?.('currency') ?? ['USD', 'EUR', 'GBP', 'JPY'];

/**
 * One row; super users and the organisation's admins rename it in place and choose its
 * currency (new orders use it; orders already made keep theirs).
 */
function OrganisationRow({
  organisation,
  canRename,
}: {
  organisation: Organisation;
  canRename: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const rename = useRenameOrganisation();
  const [editing, setEditing] = useState<string | null>(null);
  const [currency, setCurrency] = useState(organisation.currency);

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (editing === null) return;
    rename.mutate(
      {
        id: organisation.id,
        name: editing,
        ...(currency !== organisation.currency ? { currency } : {}),
      },
      { onSuccess: () => setEditing(null) },
    );
  };

  return (
    <Table.Tr data-testid="organisation-row">
      <Table.Td data-label={t('setup.organisations.name')}>
        {editing === null ? (
          organisation.name
        ) : (
          <form onSubmit={save}>
            <Group gap="xs" wrap="wrap" align="flex-start">
              <TextInput
                aria-label={t('setup.organisations.renameLabel', { name: organisation.name })}
                value={editing}
                onChange={(e) => setEditing(e.currentTarget.value)}
                error={rename.error ? errorText(errorKeyOf(rename.error)) : undefined}
                size="xs"
              />
              <NativeSelect
                aria-label={t('setup.organisations.currencyLabel', { name: organisation.name })}
                data={CURRENCIES}
                value={currency}
                onChange={(e) => setCurrency(e.currentTarget.value)}
                size="xs"
                w={110}
              />
              <Button type="submit" size="xs" loading={rename.isPending}>
                {t('setup.organisations.save')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setEditing(null)}>
                {t('common.cancel')}
              </Button>
            </Group>
          </form>
        )}
      </Table.Td>
      <Table.Td data-label={t('setup.organisations.currency')}>{organisation.currency}</Table.Td>
      <Table.Td data-label={t('setup.organisations.created')}>
        {formatDate(organisation.created_date, '')}
      </Table.Td>
      <Table.Td>
        {canRename && editing === null && (
          <Button
            size="xs"
            variant="light"
            onClick={() => {
              rename.reset();
              setEditing(organisation.name);
              setCurrency(organisation.currency);
            }}
            aria-label={`${t('setup.organisations.rename')} ${organisation.name}`}
          >
            {t('setup.organisations.rename')}
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Owner console §6: super users create organisations; admins see (and rename) their own. */
export function OrganisationsPage({ user }: { user: User }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const organisations = useOrganisations();
  const create = useCreateOrganisation();
  const [name, setName] = useState('');
  const [done, setDone] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    create.mutate(name, {
      onSuccess: (organisation) => {
        setDone(organisation.name);
        setName('');
      },
    });
  };
  const fieldError = create.error ? errorText(errorKeyOf(create.error)) : undefined;

  return (
    <Stack gap="md">
      <Title order={2}>{t('setup.organisations.title')}</Title>
      {user.role === Role.SUPER_USER && (
        <Card withBorder component="form" onSubmit={submit}>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t('setup.organisations.newName')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" loading={create.isPending}>
              {t('setup.organisations.create')}
            </Button>
          </Group>
          {done && (
            <Alert color="green" mt="sm" data-testid="organisation-created">
              {t('setup.organisations.created_one', { name: done })}
            </Alert>
          )}
        </Card>
      )}
      {organisations.data?.length === 0 && <Text>{t('setup.organisations.none')}</Text>}
      {organisations.data && organisations.data.length > 0 && (
        <Table.ScrollContainer minWidth={300} className={CARD_TABLE.scroll}>
          <Table className={CARD_TABLE.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('setup.organisations.name')}</Table.Th>
                <Table.Th>{t('setup.organisations.currency')}</Table.Th>
                <Table.Th>{t('setup.organisations.created')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {organisations.data.map((organisation) => (
                <OrganisationRow
                  key={organisation.id}
                  organisation={organisation}
                  canRename={
                    user.role === Role.SUPER_USER ||
                    (user.role === Role.ADMIN && user.organisation_id === organisation.id)
                  }
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
