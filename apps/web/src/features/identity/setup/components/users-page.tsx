import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Role, roleNames, type User } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  useInviteUser,
  useOrganisations,
  useResetUserMfa,
  useUpdateUser,
  useUsers,
} from '../api/setup-api.ts';
import { CARD_TABLE } from '../../../../components/card-table.ts';

const roleChoices = (actor: User) =>
  (actor.role === Role.SUPER_USER
    ? [Role.SUPER_USER, Role.ADMIN, Role.EVENT_OWNER]
    : [Role.ADMIN, Role.EVENT_OWNER]
  ).map((role) => ({ value: String(role), label: roleNames[role] }));

/**
 * Users (owner console §6): super users see everyone, admins their organisation. Invite by e-mail
 * (the server mails a temporary password through the outbox), change role or organisation,
 * disable, reset two-factor. The server decides who may do what; this page only offers it.
 */
export function UsersPage({ user }: { user: User }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const users = useUsers();
  const organisations = useOrganisations();
  const invite = useInviteUser();
  const update = useUpdateUser();
  const resetMfa = useResetUserMfa();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>(String(Role.EVENT_OWNER));
  const [organisation, setOrganisation] = useState<string | null>(null);
  const [invited, setInvited] = useState<string | null>(null);
  const isSuper = user.role === Role.SUPER_USER;
  const orgChoices = (organisations.data ?? []).map((o) => ({
    value: String(o.id),
    label: o.name,
  }));
  const organisationId =
    organisation ?? user.organisation_id?.toString() ?? orgChoices[0]?.value ?? null;
  const failure = invite.error ?? update.error ?? resetMfa.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setInvited(null);
    const chosenRole = Number(role) as Role;
    invite.mutate(
      {
        email: email.trim(),
        role: chosenRole,
        organisation_id:
          chosenRole === Role.SUPER_USER || !organisationId ? null : Number(organisationId),
      },
      {
        onSuccess: (created) => {
          setInvited(created.email);
          setEmail('');
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Title order={2}>{t('setup.users.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('setup.users.intro')}
      </Text>
      <Card withBorder component="form" onSubmit={submit}>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('setup.users.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={invite.error ? errorText(errorKeyOf(invite.error)) : undefined}
            style={{ flex: '2 1 220px' }}
          />
          <Select
            label={t('setup.users.role')}
            data={roleChoices(user)}
            value={role}
            onChange={(value) => value && setRole(value)}
            allowDeselect={false}
            style={{ flex: '1 1 150px' }}
          />
          {isSuper && Number(role) !== Role.SUPER_USER && (
            <Select
              label={t('setup.users.organisation')}
              data={orgChoices}
              value={organisationId}
              onChange={setOrganisation}
              allowDeselect={false}
              style={{ flex: '1 1 180px' }}
            />
          )}
          <Button type="submit" loading={invite.isPending}>
            {t('setup.users.invite')}
          </Button>
        </Group>
      </Card>
      {invited && (
        <Alert color="green" data-testid="user-invited">
          {t('setup.users.invited', { email: invited })}
        </Alert>
      )}
      {failure && !invite.error && <Alert color="red">{errorText(errorKeyOf(failure))}</Alert>}
      {users.data && (
        <Table.ScrollContainer minWidth={760} className={CARD_TABLE.scroll}>
          <Table className={CARD_TABLE.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('setup.users.email')}</Table.Th>
                <Table.Th>{t('setup.users.role')}</Table.Th>
                <Table.Th>{t('setup.users.organisation')}</Table.Th>
                <Table.Th>{t('setup.users.status')}</Table.Th>
                <Table.Th>{t('setup.users.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.map((row) => {
                const self = row.id === user.id;
                return (
                  <Table.Tr key={row.id} data-testid="user-row">
                    <Table.Td data-label={t('setup.users.email')}>{row.email}</Table.Td>
                    <Table.Td data-label={t('setup.users.role')}>
                      {self ? (
                        roleNames[row.role]
                      ) : (
                        <Select
                          aria-label={t('setup.users.roleOf', { email: row.email })}
                          size="xs"
                          w={140}
                          data={roleChoices(user)}
                          value={String(row.role)}
                          allowDeselect={false}
                          onChange={(value) =>
                            value &&
                            update.mutate({
                              id: row.id,
                              role: Number(value) as Role,
                              ...(Number(value) === Role.SUPER_USER
                                ? {}
                                : { organisation_id: row.organisation_id ?? user.organisation_id }),
                            })
                          }
                        />
                      )}
                    </Table.Td>
                    <Table.Td data-label={t('setup.users.organisation')}>
                      {isSuper && !self && row.role !== Role.SUPER_USER ? (
                        <Select
                          aria-label={t('setup.users.organisationOf', { email: row.email })}
                          size="xs"
                          w={170}
                          data={orgChoices}
                          value={row.organisation_id === null ? null : String(row.organisation_id)}
                          allowDeselect={false}
                          onChange={(value) =>
                            value && update.mutate({ id: row.id, organisation_id: Number(value) })
                          }
                        />
                      ) : (
                        (row.organisation_name ?? '—')
                      )}
                    </Table.Td>
                    <Table.Td data-label={t('setup.users.status')}>
                      <Group gap={4}>
                        {row.disabled ? (
                          <Badge color="red">{t('setup.users.disabled')}</Badge>
                        ) : row.status === 'FORCE_CHANGE_PASSWORD' ? (
                          <Badge color="yellow">{t('setup.users.invitedStatus')}</Badge>
                        ) : (
                          <Badge color="green">{t('setup.users.active')}</Badge>
                        )}
                        {row.mfa_enabled && <Badge variant="light">{t('setup.users.mfa')}</Badge>}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {!self && (
                        <Group gap="xs" wrap="nowrap">
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => update.mutate({ id: row.id, disabled: !row.disabled })}
                          >
                            {row.disabled ? t('setup.users.enable') : t('setup.users.disable')}
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            disabled={!row.mfa_enabled}
                            onClick={() => resetMfa.mutate(row.id)}
                          >
                            {t('setup.users.resetMfa')}
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
