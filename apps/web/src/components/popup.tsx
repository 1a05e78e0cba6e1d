import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type PopupSize = 'sm' | 'md' | 'lg';

export interface PopupProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly title: ReactNode;
  readonly children: ReactNode;
  /** Buttons, right-aligned under the body. */
  readonly footer?: ReactNode;
  readonly size?: PopupSize;
  readonly testId?: string;
}

/**
 * The shared popup of owner-console §2: title, body and footer, in three sizes. Stacks above an
 * open modal (e.g. a confirm over the event editor).
 */
export function Popup({
  opened,
  onClose,
  title,
  children,
  footer,
  size = 'md',
  testId,
}: PopupProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      centered
      zIndex={300}
      data-testid={testId}
    >
      <Stack gap="md">
        {children}
        {footer ? (
          <Group justify="flex-end" gap="sm">
            {footer}
          </Group>
        ) : null}
      </Stack>
    </Modal>
  );
}

export interface ConfirmPopupProps {
  readonly opened: boolean;
  readonly title: ReactNode;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly cancelLabel?: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly danger?: boolean;
  readonly size?: PopupSize;
  readonly loading?: boolean;
  /** The confirm button waits for something (e.g. a typed code). */
  readonly confirmDisabled?: boolean;
}

/** A question with two answers; closing it counts as cancelling. */
export function ConfirmPopup({
  opened,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  danger = false,
  size = 'sm',
  loading = false,
  confirmDisabled = false,
}: ConfirmPopupProps) {
  const { t } = useTranslation();
  return (
    <Popup
      opened={opened}
      onClose={onCancel}
      title={title}
      size={size}
      footer={
        <>
          <Button variant="default" onClick={onCancel}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button
            color={danger ? 'red' : undefined}
            onClick={onConfirm}
            loading={loading}
            disabled={confirmDisabled}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Popup>
  );
}
