import { Group } from '@mantine/core';
import type { ReactNode } from 'react';

/** The form is long: its buttons stay in view at the bottom of the dialog (editor and wizard). */
export function StickyFooter({ children }: { children: ReactNode }) {
  return (
    <Group
      justify="space-between"
      mt="lg"
      py="sm"
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 5,
        background: 'var(--mantine-color-body)',
        borderTop: '1px solid var(--mantine-color-default-border)',
      }}
    >
      {children}
    </Group>
  );
}
