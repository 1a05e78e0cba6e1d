import { Anchor, Group, Image, Select, SimpleGrid, Stack } from '@mantine/core';
import { useFormContext, useWatch, type FieldPathByValue } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { EVENT_LIMITS } from '@flashbulb/shared';
import type { EventFormValues } from '../utils/event-form-values.ts';
import {
  FlagCheckbox,
  NullableNumberField,
  NumberField,
  TextAreaField,
  TextField,
} from './form-fields.tsx';
import { ImageUploadButton } from './image-upload-button.tsx';
import { SecureInput, SectionTitle } from './toggled-fields.tsx';

type Values = EventFormValues;

/**
 * A web-app image (albums spec §2.6, §4): ticking enables the source, unticking disables and
 * clears it; a preview and a download link show what is set.
 */
function WebAppImageField({
  flag,
  src,
  link,
  label,
}: {
  flag: FieldPathByValue<Values, 0 | 1>;
  src: FieldPathByValue<Values, string>;
  link?: FieldPathByValue<Values, string>;
  label: string;
}) {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<Values>();
  const on = useWatch({ control, name: flag }) === 1;
  const source = useWatch({ control, name: src });
  return (
    <Stack gap={4}>
      <FlagCheckbox
        name={flag}
        label={label}
        onToggle={(checked) => {
          if (!checked) setValue(src, '', { shouldDirty: true });
        }}
      />
      <Group align="flex-end" wrap="nowrap">
        <TextField
          name={src}
          label={t('events.options.source', { label })}
          disabled={!on}
          style={{ flex: 1 }}
        />
        <ImageUploadButton
          root="webapp-etc"
          label={label}
          disabled={!on}
          onUploaded={(url) => setValue(src, url, { shouldDirty: true })}
        />
        {on && source ? (
          <>
            <Image src={source} alt={t('events.editor.preview', { label })} h={40} w="auto" />
            <Anchor href={source} download size="sm" mb={8}>
              {t('events.options.download')}
            </Anchor>
          </>
        ) : null}
      </Group>
      {link ? (
        <TextField name={link} label={t('events.options.link', { label })} disabled={!on} />
      ) : null}
    </Stack>
  );
}

export function OptionsTab() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<Values>();
  const smsOn = useWatch({ control, name: 'opts.webappSmsEnabled' }) === 1;
  const registration = useWatch({ control, name: 'opts.webappRegistrationType' });
  const erasePhotos = useWatch({ control, name: 'opts.erasePhotos' });
  return (
    <Stack gap="sm">
      <SectionTitle>{t('events.options.imagesSection')}</SectionTitle>
      <WebAppImageField
        flag="opts.webappLogoEnabled"
        src="opts.webappLogoSrc"
        label={t('events.options.logo')}
      />
      <WebAppImageField
        flag="opts.webappBackgroundEnabled"
        src="opts.webappBackgroundSrc"
        label={t('events.options.background')}
      />
      <WebAppImageField
        flag="opts.webappBannerTopEnabled"
        src="opts.webappBannerTopSrc"
        link="opts.webappBannerTopLink"
        label={t('events.options.bannerTop')}
      />
      <WebAppImageField
        flag="opts.webappBannerBottomEnabled"
        src="opts.webappBannerBottomSrc"
        link="opts.webappBannerBottomLink"
        label={t('events.options.bannerBottom')}
      />
      <SectionTitle>{t('events.options.smsSection')}</SectionTitle>
      <FlagCheckbox name="opts.webappSmsEnabled" label={t('events.options.smsEnabled')} />
      <TextAreaField
        name="opts.webappSmsText"
        label={t('events.options.smsText')}
        description={t('events.options.smsTextHint')}
        minRows={2}
        disabled={!smsOn}
      />
      <TextAreaField
        name="opts.webappSmsAgreement"
        label={t('events.options.smsAgreement')}
        minRows={2}
        disabled={!smsOn}
      />
      <SectionTitle>{t('events.options.pageSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="opts.webappShareTitle" label={t('events.options.shareTitle')} />
        <TextField name="opts.ogpTitle" label={t('events.options.ogpTitle')} />
      </SimpleGrid>
      <TextAreaField
        name="opts.ogpDescription"
        label={t('events.options.ogpDescription')}
        minRows={2}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          name="opts.webappRegistrationType"
          label={t('events.options.registration')}
          data={[
            { value: 'default', label: t('events.options.registrationDefault') },
            { value: 'byIdFirst', label: t('events.options.registrationByIdFirst') },
          ]}
          value={registration}
          allowDeselect={false}
          comboboxProps={{ zIndex: 400 }}
          onChange={(value) =>
            value &&
            setValue(
              'opts.webappRegistrationType',
              value === 'byIdFirst' ? 'byIdFirst' : 'default',
              { shouldDirty: true },
            )
          }
        />
      </SimpleGrid>
      <SectionTitle>{t('events.options.kioskSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NullableNumberField
          name="opts.sessionExpiryMinutes"
          label={t('events.options.sessionExpiry')}
          description={t('events.options.sessionExpiryHint')}
          min={1}
        />
        <SecureInput field="kiosk_staff_pin" label={t('events.secure.kiosk_staff_pin')} />
      </SimpleGrid>
      <FlagCheckbox name="opts.redirectToWebApp" label={t('events.options.redirect')} />
      <TextField name="opts.supportChatKey" label={t('events.options.supportChatKey')} />
      <TextAreaField name="opts.agreementText" label={t('events.options.agreement')} />
      <TextAreaField name="opts.faqText" label={t('events.options.faq')} />
      <SectionTitle>{t('events.options.userContentSection')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="opts.userContentTooltip" label={t('events.options.ucTooltip')} />
        <TextField name="opts.userContentUploadMessage" label={t('events.options.ucUpload')} />
        <TextField name="opts.userContentProcessMessage" label={t('events.options.ucProcess')} />
        <TextField name="opts.timeInTimeText" label={t('events.options.timeInTime')} />
      </SimpleGrid>
      <SectionTitle>{t('events.options.slideshowSection')}</SectionTitle>
      <TextField name="opts.slideshowBg" label={t('events.options.slideshowBg')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberField
          name="opts.slideshowMinIntervalSeconds"
          label={t('events.options.slideshowMin')}
          min={1}
          max={EVENT_LIMITS.slideshowIntervalMaxSeconds}
          allowDecimal
        />
        <NumberField
          name="opts.slideshowMaxIntervalSeconds"
          label={t('events.options.slideshowMax')}
          min={1}
          max={EVENT_LIMITS.slideshowIntervalMaxSeconds}
          allowDecimal
        />
      </SimpleGrid>
      <SectionTitle>{t('events.options.guestSection')}</SectionTitle>
      <TextField
        name="opts.guestAccentColor"
        label={t('events.options.guestAccentColor')}
        placeholder="#3b5bdb"
      />
      <FlagCheckbox name="opts.guestShowFileNames" label={t('events.options.guestShowFileNames')} />
      <FlagCheckbox
        name="opts.guestDownloadEnabled"
        label={t('events.options.guestDownloadEnabled')}
      />
      <FlagCheckbox
        name="opts.guestDownloadWebOnly"
        label={t('events.options.guestDownloadWebOnly')}
      />
      <SectionTitle>{t('events.options.privacySection')}</SectionTitle>
      <Select
        name="opts.erasePhotos"
        label={t('events.options.erasePhotos')}
        description={t('events.options.erasePhotosHint')}
        data={[
          { value: 'delete', label: t('events.options.erasePhotosDelete') },
          { value: 'detach', label: t('events.options.erasePhotosDetach') },
        ]}
        value={erasePhotos}
        allowDeselect={false}
        comboboxProps={{ zIndex: 400 }}
        onChange={(value) =>
          value &&
          setValue('opts.erasePhotos', value === 'detach' ? 'detach' : 'delete', {
            shouldDirty: true,
          })
        }
      />
    </Stack>
  );
}
