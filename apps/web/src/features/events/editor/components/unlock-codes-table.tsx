import { useState } from 'react';
import { ActionIcon, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useController, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatUnlockCodes, parseUnlockCodes, type UnlockCodeEntry } from '@flashbulb/shared';
import { useErrorText } from '../../../../lib/error-text.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';
import { newUnlockCode } from '../utils/random-codes.ts';
import { UnlockCodeQr } from './unlock-code-qr.tsx';
import { Icon } from '../../../../design/icons.tsx';
import { icon } from '../../../../design/tokens.ts';

const emptyRow = (): UnlockCodeEntry => ({ firstName: '', lastName: '', code: '' });

/**
 * Employee unlock codes (albums spec §3, §5): rows of first name, last name and a 4-character
 * code, stored as `first_last_code` entries. Rows being typed stay on screen; only complete rows
 * are stored.
 */
export function UnlockCodesTable() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { control, clearErrors } = useFormContext<EventFormValues>();
  const { field, fieldState } = useController({ control, name: 'secret_code_list' });
  const [rows, setRows] = useState<UnlockCodeEntry[]>(() => parseUnlockCodes(field.value));
  // A reset from outside (after Update) replaces the rows; our own edits already match.
  const [storedSeen, setStoredSeen] = useState(field.value);
  if (field.value !== storedSeen) {
    setStoredSeen(field.value);
    if (formatUnlockCodes(rows) !== field.value) setRows(parseUnlockCodes(field.value));
  }

  const update = (next: UnlockCodeEntry[]) => {
    setRows(next);
    const stored = formatUnlockCodes(next);
    if (stored !== field.value) field.onChange(stored);
    if (fieldState.error) clearErrors('secret_code_list');
  };
  const setCell = (index: number, patch: Partial<UnlockCodeEntry>) =>
    update(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <Stack gap="xs">
      <Table striped withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('events.paid.firstName')}</Table.Th>
            <Table.Th>{t('events.paid.lastName')}</Table.Th>
            <Table.Th>{t('events.paid.code')}</Table.Th>
            <Table.Th>{t('events.paid.qr')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const complete = Boolean(row.firstName.trim() && row.lastName.trim() && row.code);
            return (
              <Table.Tr key={index} data-testid="unlock-code-row">
                <Table.Td>
                  <TextInput
                    aria-label={t('events.paid.firstNameOf', { row: index + 1 })}
                    value={row.firstName}
                    onChange={(e) => setCell(index, { firstName: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('events.paid.lastNameOf', { row: index + 1 })}
                    value={row.lastName}
                    onChange={(e) => setCell(index, { lastName: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <TextInput
                      aria-label={t('events.paid.codeOf', { row: index + 1 })}
                      value={row.code}
                      maxLength={4}
                      w={80}
                      onChange={(e) =>
                        setCell(index, { code: e.currentTarget.value.toUpperCase() })
                      }
                    />
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => setCell(index, { code: newUnlockCode() })}
                    >
                      {t('events.paid.generate')}
                    </Button>
                  </Group>
                </Table.Td>
                <Table.Td>
                  {complete ? (
                    <UnlockCodeQr
                      code={row.code}
                      fileName={`${row.firstName}_${row.lastName}_${row.code}`}
                    />
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('events.paid.removeRow', { row: index + 1 })}
                    onClick={() => update(rows.filter((_, i) => i !== index))}
                  >
                    <Icon name="close" size={icon.console} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {fieldState.error?.message ? (
        <Text c="red" size="sm" role="alert">
          {errorText(fieldState.error.message)}
        </Text>
      ) : null}
      <Group>
        <Button variant="default" size="xs" onClick={() => setRows([...rows, emptyRow()])}>
          {t('events.paid.addCode')}
        </Button>
      </Group>
    </Stack>
  );
}
