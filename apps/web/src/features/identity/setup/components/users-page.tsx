import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
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
  useOrganisationChoice,
  useResetUserMfa,
  useUpdateUser,
  useUsers,
} from '../api/setup-api.ts';
import { CardTable } from '../../../../components/card-table-view.tsx';

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
  const invite = useInviteUser();
  const update = useUpdateUser();
  const resetMfa = useResetUserMfa();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>(String(Role.EVENT_OWNER));
  const [invited, setInvited] = useState<string | null>(null);
  const isSuper = user.role === Role.SUPER_USER;
  const {
    choices: orgChoices,
    organisationId,
    setPicked: setOrganisation,
  } = useOrganisationChoice(user);
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
        <CardTable
          minWidth={760}
          rows={users.data}
          rowKey={(row) => row.id}
          rowTestId="user-row"
          columns={[
            { label: t('setup.users.email'), cell: (row) => row.email },
            {
              label: t('setup.users.role'),
              cell: (row) =>
                row.id === user.id ? (
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
                ),
            },
            {
              label: t('setup.users.organisation'),
              cell: (row) =>
                isSuper && row.id !== user.id && row.role !== Role.SUPER_USER ? (
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
                ),
            },
            {
              label: t('setup.users.status'),
              cell: (row) => (
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
              ),
            },
            {
              label: t('setup.users.actions'),
              actions: true,
              cell: (row) =>
                row.id !== user.id && (
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
                ),
            },
          ]}
        />
      )}
    </Stack>
  );
}
