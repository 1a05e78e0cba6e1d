import type { ReactNode } from 'react';
import { Alert, AppShell, Badge, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink as RouterNavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '../../lib/session-store.ts';
import { useSignOut } from '../../lib/session/use-sign-out.ts';
import { ChangePasswordModal } from '../../features/identity/my-info/components/change-password-modal.tsx';
import { navItemsFor } from './console-nav.ts';

export function ConsoleShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const { t } = useTranslation();
  const [navOpened, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const signOut = useSignOut();
  const [passwordOpened, { open: openPassword, close: closePassword }] = useDisclosure(false);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px={{ base: 'xs', xs: 'md' }} justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={toggleNav}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('console.toggleNavigation')}
            />
            <Title order={1} size="h3" c="indigo.7">
              {t('app.name')}
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" visibleFrom="xs" data-testid="header-email">
              {user.email}
            </Text>
            {/* On a phone the header keeps its two buttons; the role is on the overview. */}
            <Badge variant="light" visibleFrom="xs" data-testid="header-role">
              {t(`roles.${user.role}`)}
            </Badge>
            {/* A phone (390 px) has room for a shorter label; the name stays the full one. */}
            <Button
              variant="subtle"
              size="xs"
              px={6}
              onClick={openPassword}
              aria-label={t('console.changePassword.open')}
            >
              <Text span inherit visibleFrom="xs">
                {t('console.changePassword.open')}
              </Text>
              <Text span inherit hiddenFrom="xs">
                {t('console.changePassword.openShort')}
              </Text>
            </Button>
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              {t('console.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('console.toggleNavigation')}>
        {navItemsFor(user.role).map((item) => (
          <NavLink
            key={item.to}
            component={RouterNavLink}
            to={item.to}
            end={item.end}
            label={t(item.labelKey as 'console.nav.overview')}
            onClick={closeNav}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        {/* The server's test payment provider is on (FLASHBULB_PAYMENTS_PROVIDER=test): every
            console page says so, so nobody takes a demo install for a shop. */}
        {user.test_payments === true && (
          <Alert color="orange" variant="filled" mb="md" role="status" data-testid="test-payments">
            {t('console.testPayments')}
          </Alert>
        )}
        {children}
      </AppShell.Main>
      <ChangePasswordModal opened={passwordOpened} onClose={closePassword} />
    </AppShell>
  );
}
