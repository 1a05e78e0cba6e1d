import { SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TextField } from './form-fields.tsx';
import { SecureInput, SectionTitle } from './toggled-fields.tsx';

const addressFields = [
  'shopifyFirstName',
  'shopifyLastName',
  'shopifyCompany',
  'shopifyPhoneNumber',
  'shopifyAddress1',
  'shopifyAddress2',
  'shopifyCity',
  'shopifyZip',
  'shopifyState',
  'shopifyCountry',
] as const;

export function ShopAddressTab() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <SectionTitle>{t('events.shop.addressSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {addressFields.map((field) => (
          <TextField
            key={field}
            name={`shopify_shipping_address.${field}`}
            label={t(`events.shop.${field}`)}
          />
        ))}
      </SimpleGrid>
      <SectionTitle>{t('events.shop.shopSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="opts.shopDomain" label={t('events.shop.domain')} />
        <TextField name="opts.shopPlusId" label={t('events.shop.plusId')} />
        <TextField name="opts.shopOrderTags" label={t('events.shop.orderTags')} />
      </SimpleGrid>
      <SecureInput field="shopify_api_key" label={t('events.secure.shopify_api_key')} />
      <SecureInput field="shopify_api_pass" label={t('events.secure.shopify_api_pass')} />
    </Stack>
  );
}
