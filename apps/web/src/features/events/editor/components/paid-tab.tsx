import { Checkbox, Group, SimpleGrid, Stack } from '@mantine/core';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import {
  ALBUM_PAYMENT_METHODS,
  KIOSK_PAYMENT_METHODS,
  type PaymentMethod,
} from '@flashbulb/shared';
import { useTranslation } from 'react-i18next';
import { DEFAULT_WATERMARK_IMAGE, type EventFormValues } from '../utils/event-form-values.ts';
import {
  FlagCheckbox,
  ListField,
  NullableNumberField,
  NullableTextField,
  TextAreaField,
} from './form-fields.tsx';
import { useEditorContext } from '../hooks/editor-context.ts';
import { ImageUploadButton } from './image-upload-button.tsx';
import { PreviewProtectionPanel } from './preview-protection-panel.tsx';
import { PricingButtonsEditor } from './pricing-buttons-editor.tsx';
import { SecureInput, SectionTitle } from './toggled-fields.tsx';
import { UnlockCodesTable } from './unlock-codes-table.tsx';

export function PaidTab() {
  const { t } = useTranslation();
  const { control, setValue, getValues } = useFormContext<EventFormValues>();
  const { mode, event } = useEditorContext();
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
      <Group align="flex-end" wrap="nowrap">
        <NullableTextField
          name="protector_watermark"
          label={t('events.paid.protectorWatermark')}
          description={t('events.paid.protectorHint')}
          disabled={!paid}
          style={{ flex: 1 }}
        />
        <ImageUploadButton
          root="watermarks"
          label={t('events.paid.protectorWatermark')}
          disabled={!paid}
          onUploaded={(url) => setValue('protector_watermark', url, dirty)}
        />
      </Group>
      {/* The saved event's previews (a change shows here once it is saved). */}
      {mode === 'edit' && event && event.is_free === 0 && (
        <PreviewProtectionPanel eventId={event.id} />
      )}
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
      <SectionTitle>{t('events.paid.methodsSection')}</SectionTitle>
      <MethodsField
        name="opts.albumPaymentMethods"
        label={t('events.paid.albumMethods')}
        methods={ALBUM_PAYMENT_METHODS}
      />
      <MethodsField
        name="opts.kioskPaymentMethods"
        label={t('events.paid.kioskMethods')}
        methods={KIOSK_PAYMENT_METHODS}
      />
      <SecureInput field="stripe_secret_key" label={t('events.secure.stripe_secret_key')} />
      <SecureInput field="monobank_token" label={t('events.secure.monobank_token')} />
      <SecureInput field="square_access_token" label={t('events.secure.square_access_token')} />
    </Stack>
  );
}

/**
 * Which ways to pay the album page or the kiosks offer: the server refuses the others,
 * and the pages show only these.
 */
function MethodsField({
  name,
  label,
  methods,
}: {
  name: 'opts.albumPaymentMethods' | 'opts.kioskPaymentMethods';
  label: string;
  methods: readonly PaymentMethod[];
}) {
  const { t } = useTranslation();
  const { control } = useFormContext<EventFormValues>();
  const { field } = useController({ name, control });
  return (
    <Checkbox.Group
      label={label}
      value={field.value ?? []}
      onChange={(value) => field.onChange(methods.filter((m) => value.includes(m)))}
    >
      <Group mt="xs">
        {methods.map((method) => (
          <Checkbox
            key={method}
            name={name}
            value={method}
            label={t(`events.paid.method.${method}`)}
          />
        ))}
      </Group>
    </Checkbox.Group>
  );
}
