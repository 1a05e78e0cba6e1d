import { SimpleGrid, Stack } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DEFAULT_WATERMARK_IMAGE, type EventFormValues } from '../utils/event-form-values.ts';
import {
  FlagCheckbox,
  ListField,
  NullableNumberField,
  NullableTextField,
  TextAreaField,
} from './form-fields.tsx';
import { PricingButtonsEditor } from './pricing-buttons-editor.tsx';
import { SecureInput, SectionTitle } from './toggled-fields.tsx';
import { UnlockCodesTable } from './unlock-codes-table.tsx';

export function PaidTab() {
  const { t } = useTranslation();
  const { control, setValue, getValues } = useFormContext<EventFormValues>();
  const paid = useWatch({ control, name: 'is_free' }) === 0;
  const upsell = useWatch({ control, name: 'opts.upsellEnabled' }) === 1;
  const dirty = { shouldDirty: true } as const;
  return (
    <Stack gap="sm">
      <FlagCheckbox
        name="is_free"
        inverted
        label={t('events.paid.paid')}
        onToggle={(on) => {
          // A paid event's photos carry the protector watermark until unlocked.
          if (on && getValues('protector_watermark') === null)
            setValue('protector_watermark', DEFAULT_WATERMARK_IMAGE, dirty);
          if (!on) setValue('protector_watermark', null, dirty);
        }}
      />
      <NullableTextField
        name="protector_watermark"
        label={t('events.paid.protectorWatermark')}
        disabled={!paid}
      />
      <SectionTitle>{t('events.paid.codesSection')}</SectionTitle>
      <UnlockCodesTable />
      <SectionTitle>{t('events.paid.shopSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NullableNumberField
          name="opts.unitPrice"
          label={t('events.paid.unitPrice')}
          min={0}
          allowDecimal
          decimalScale={2}
        />
        <ListField
          name="opts.productCollections"
          label={t('events.paid.productCollections')}
          description={t('events.general.commaSeparated')}
        />
      </SimpleGrid>
      <FlagCheckbox name="opts.hideProductPrice" label={t('events.paid.hidePrice')} />
      <SectionTitle>{t('events.paid.buttonsSection')}</SectionTitle>
      <PricingButtonsEditor />
      <TextAreaField
        name="opts.digitalProductMessage"
        label={t('events.paid.digitalMessage')}
        minRows={2}
      />
      <FlagCheckbox
        name="opts.upsellEnabled"
        label={t('events.paid.upsell')}
        onToggle={(on) => {
          if (!on) setValue('opts.upsellMessage', '', dirty);
        }}
      />
      <TextAreaField
        name="opts.upsellMessage"
        label={t('events.paid.upsellMessage')}
        minRows={2}
        disabled={!upsell}
      />
      <FlagCheckbox name="opts.comboRequired" label={t('events.paid.comboRequired')} />
      <FlagCheckbox name="opts.qrAtKioskCheckout" label={t('events.paid.qrAtCheckout')} />
      <SecureInput field="stripe_secret_key" label={t('events.secure.stripe_secret_key')} />
      <SecureInput field="monobank_token" label={t('events.secure.monobank_token')} />
      <SecureInput field="square_access_token" label={t('events.secure.square_access_token')} />
    </Stack>
  );
}
