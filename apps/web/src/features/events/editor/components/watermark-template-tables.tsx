import { useState } from 'react';
import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { pptItemSchema } from '@flashbulb/shared';
import { ConfirmPopup, Popup } from '../../../../components/popup.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { removeTemplate } from '../api/catalog-api.ts';

export type TemplateItem = z.infer<typeof pptItemSchema>;

/** Template pages (albums spec §2.6); the template editor itself is another page. */
export const templateUrls = {
  add: '/templates/?watermark=1',
  edit: (id: number) => `/templates/?tid=${id}&watermark=1`,
  preview: (id: number) => `/templates/?tid=${id}&mode=preview`,
};

export const openInNewWindow = (url: string) => {
  window.open(url, '_blank', 'noopener');
};

function TemplateTable({
  title,
  items,
  canChange,
  onDelete,
}: {
  title: string;
  items: readonly TemplateItem[];
  canChange: boolean;
  onDelete: (item: TemplateItem) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      <Table striped withTableBorder aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>{t('events.watermarks.name')}</Table.Th>
            <Table.Th>{t('events.watermarks.organisation')}</Table.Th>
            <Table.Th>{t('events.watermarks.placeholders')}</Table.Th>
            <Table.Th>{t('events.watermarks.created')}</Table.Th>
            <Table.Th>{t('events.watermarks.updated')}</Table.Th>
            <Table.Th>{t('events.watermarks.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={7}>
                <Text size="sm" c="dimmed">
                  {t('events.watermarks.none')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            items.map((item, index) => (
              <Table.Tr key={item.id}>
                <Table.Td>{index + 1}</Table.Td>
                <Table.Td>{item.name}</Table.Td>
                <Table.Td>{item.organisation_name ?? ''}</Table.Td>
                <Table.Td>{item.placeholder_counts}</Table.Td>
                <Table.Td>{item.created_date.slice(0, 10)}</Table.Td>
                <Table.Td>{item.updated_date.slice(0, 10)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Anchor
                      size="sm"
                      href={templateUrls.preview(item.id)}
                      target="_blank"
                      rel="noopener"
                    >
                      {t('events.watermarks.preview')}
                    </Anchor>
                    {canChange ? (
                      <>
                        <Anchor
                          size="sm"
                          href={templateUrls.edit(item.id)}
                          target="_blank"
                          rel="noopener"
                        >
                          {t('events.watermarks.edit')}
                        </Anchor>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          onClick={() => onDelete(item)}
                          aria-label={t('events.watermarks.deleteNamed', { name: item.name })}
                        >
                          {t('events.watermarks.delete')}
                        </Button>
                      </>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/**
 * Public and private watermark templates (albums spec §2.6, §6): in the public table only super
 * users may edit and delete; private templates belong to their organisation's users.
 */
export function WatermarkTemplateTables({
  publicItems,
  privateItems,
  isSuper,
  onChanged,
}: {
  publicItems: readonly TemplateItem[];
  privateItems: readonly TemplateItem[];
  isSuper: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [deleting, setDeleting] = useState<TemplateItem | null>(null);
  const [busy, setBusy] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);

  const confirm = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await removeTemplate(deleting.id);
    } catch (error) {
      setErrorKey(errorKeyOf(error));
    } finally {
      setBusy(false);
      setDeleting(null);
      // On success the row goes; on failure the list is refreshed too (albums spec §8).
      onChanged();
    }
  };

  return (
    <Stack gap="sm">
      <TemplateTable
        title={t('events.watermarks.publicTemplates')}
        items={publicItems}
        canChange={isSuper}
        onDelete={setDeleting}
      />
      <TemplateTable
        title={t('events.watermarks.privateTemplates')}
        items={privateItems}
        canChange
        onDelete={setDeleting}
      />
      <ConfirmPopup
        opened={deleting !== null}
        title={t('events.watermarks.deleteTitle')}
        confirmLabel={t('events.watermarks.delete')}
        onConfirm={() => void confirm()}
        onCancel={() => setDeleting(null)}
        loading={busy}
        danger
      >
        <Text>{t('events.watermarks.deleteQuestion', { name: deleting?.name ?? '' })}</Text>
      </ConfirmPopup>
      <Popup
        opened={errorKey !== null}
        onClose={() => setErrorKey(null)}
        title={t('events.editor.errorTitle')}
        size="sm"
      >
        <Text role="alert">{errorKey ? errorText(errorKey) : ''}</Text>
      </Popup>
    </Stack>
  );
}
