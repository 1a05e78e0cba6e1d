import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  buttonPriceCents,
  centsToMinor,
  DEFAULT_CURRENCY,
  formatMoney,
  PRICE_PREVIEW_PHOTO_COUNTS,
  priceFormulaIssue,
  PRICING_BUTTONS_MAX,
  pricingButtonSchema,
} from '@flashbulb/shared';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useOrganisations } from '../api/catalog-api.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';
import { BoolCheckbox, TextField } from './form-fields.tsx';

/**
 * The pricing buttons of a paid event (albums spec §3): text, price formula, what it sells, and a
 * live price preview for 1, 5 and 20 photos at the event's unit price and multiplier, computed by
 * the same shared rules the server checks on save, in the currency of the event's organisation
 * (the one orders are made in; a user who sees one organisation sees only theirs).
 */
export function PricingButtonsEditor() {
  const { t } = useTranslation();
  const { control } = useFormContext<EventFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'opts.pricingButtons' });
  const organisationId = useWatch({ control, name: 'organisation_id' });
  const organisations = useOrganisations(true).data ?? [];
  const currency =
    (
      organisations.find((o) => o.id === organisationId) ??
      (organisations.length === 1 ? organisations[0] : undefined)
    )?.currency ?? DEFAULT_CURRENCY;
  return (
    <Stack gap="xs">
      {fields.map((field, index) => (
        <PricingButtonRow
          key={field.id}
          index={index}
          currency={currency}
          onRemove={() => remove(index)}
        />
      ))}
      <Group>
        <Button
          variant="default"
          size="xs"
          disabled={fields.length >= PRICING_BUTTONS_MAX}
          onClick={() =>
            append(pricingButtonSchema.parse({ priceFormula: '{Final_Amount}' }), {
              shouldFocus: false,
            })
          }
        >
          {t('events.paid.addButton')}
        </Button>
      </Group>
    </Stack>
  );
}

function PricingButtonRow({
  index,
  currency,
  onRemove,
}: {
  index: number;
  currency: string;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { control } = useFormContext<EventFormValues>();
  const formula = useWatch({ control, name: `opts.pricingButtons.${index}.priceFormula` }) ?? '';
  const unitPrice = useWatch({ control, name: 'opts.unitPrice' });
  const multiplier = useWatch({ control, name: 'opts.eventMultiplier' });
  const printMultiplier = useWatch({ control, name: 'opts.printMultiplier' });
  const prints = useWatch({ control, name: `opts.pricingButtons.${index}.prints` }) ?? false;
  const vipPattern = useWatch({ control, name: 'opts.attendeeIdVipRegex' });
  const context = {
    unitPrice,
    multiplier: Number(multiplier) || 1,
    printMultiplier: Number(printMultiplier) || 1,
  };
  // A button selling prints is priced with the print multiplier too (as the server prices it).
  const liveIssue = formula.trim() ? priceFormulaIssue(formula, context, prints) : null;
  const row = index + 1;
  const prices = (userType: 1 | 2) =>
    PRICE_PREVIEW_PHOTO_COUNTS.map((photoCount) => {
      const result = buttonPriceCents({
        priceFormula: formula,
        ...context,
        printMultiplier: prints ? context.printMultiplier : 1,
        photoCount,
        userType,
      });
      return {
        photoCount,
        text: result.ok ? formatMoney(centsToMinor(result.cents, currency), currency) : '—',
      };
    });
  return (
    <Card withBorder padding="sm" data-testid="pricing-button">
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField
            name={`opts.pricingButtons.${index}.buttonText`}
            label={t('events.paid.buttonTextOf', { row })}
          />
          <TextField
            name={`opts.pricingButtons.${index}.priceFormula`}
            label={t('events.paid.priceFormulaOf', { row })}
            description={t('events.paid.priceFormulaHint')}
            // Marked while typing, before any save; a save refusal shows through the same field.
            liveError={liveIssue ? errorText(liveIssue) : null}
          />
        </SimpleGrid>
        <Group gap="md">
          <BoolCheckbox
            name={`opts.pricingButtons.${index}.digitals`}
            label={t('events.paid.digitals')}
          />
          <BoolCheckbox
            name={`opts.pricingButtons.${index}.prints`}
            label={t('events.paid.prints')}
          />
          <BoolCheckbox
            name={`opts.pricingButtons.${index}.partialUnlockTags`}
            label={t('events.paid.partialUnlockTags')}
          />
        </Group>
        <TextField
          name={`opts.pricingButtons.${index}.printsPool`}
          label={t('events.paid.printsPoolOf', { row })}
          w={240}
        />
        <Stack gap={2} aria-label={t('events.paid.previewOf', { row })} role="group">
          <Text size="sm" data-testid="price-preview">
            {prices(1)
              .map((p) => t('events.paid.previewPrice', { count: p.photoCount, price: p.text }))
              .join(' · ')}
          </Text>
          {vipPattern ? (
            <Text size="sm" c="dimmed" data-testid="price-preview-vip">
              {t('events.paid.vip')}:{' '}
              {prices(2)
                .map((p) => t('events.paid.previewPrice', { count: p.photoCount, price: p.text }))
                .join(' · ')}
            </Text>
          ) : null}
        </Stack>
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={onRemove}
            aria-label={t('events.paid.removeButton', { row })}
          >
            {t('events.paid.remove')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
