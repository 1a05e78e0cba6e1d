import type { ReactNode } from 'react';
import { Badge, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useEditorContext } from '../hooks/editor-context.ts';
import { FlagCheckbox, ListField, TextAreaFields, TextField } from './form-fields.tsx';

/** The sender address, with what is known of its verification beside it. */
export function FromAddressField({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" wrap="nowrap">
      <TextField
        name="email_from_address"
        label={t('events.email.fromAddress')}
        type="email"
        required
        style={{ flex: 1 }}
      />
      {children}
    </Group>
  );
}

export function EmailTab() {
  const { t } = useTranslation();
  const { mode, event } = useEditorContext();
  return (
    <Stack gap="sm">
      <TextField name="email_subject" label={t('events.email.subject')} />
      <FromAddressField>
        {mode === 'edit' && event?.email_from_address ? (
          <Badge
            mb={8}
            color={event.email_from_address_verified ? 'green' : 'yellow'}
            variant="light"
          >
            {event.email_from_address_verified
              ? t('events.email.verified')
              : t('events.email.notVerified')}
          </Badge>
        ) : null}
      </FromAddressField>
      <TextField name="email_from_name" label={t('events.email.fromName')} required />
      <TextAreaFields
        required
        fields={[
          {
            name: 'email_body_template',
            label: t('events.email.body'),
            description: t('events.email.bodyHint'),
          },
          {
            name: 'email_body_template_share',
            label: t('events.email.shareBody'),
            description: t('events.email.shareBodyHint'),
          },
          {
            name: 'receipt_email_body',
            label: t('events.email.receiptBody'),
            description: t('events.email.receiptBodyHint'),
          },
        ]}
      />
      <ListField
        name="opts.emailEnds"
        label={t('events.email.emailEnds')}
        description={t('events.general.commaSeparated')}
      />
      <FlagCheckbox name="opts.enableEmailCollect" label={t('events.email.enableEmailCollect')} />
      <FlagCheckbox
        name="opts.enableAttendeeReminder"
        label={t('events.email.enableAttendeeReminder')}
      />
    </Stack>
  );
}
