import { Select, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  GUEST_LANGUAGES,
  LANGUAGE_NAMES,
  TRANSLATABLE_SETTINGS,
  type GuestLanguage,
  type TextTranslations,
  type TranslatableSetting,
} from '@flashbulb/shared/i18n/languages';
import type { EventFormValues } from '../utils/event-form-values.ts';
import { FlagCheckbox } from './form-fields.tsx';
import { SectionTitle } from './toggled-fields.tsx';

const LANGUAGE_OPTIONS = GUEST_LANGUAGES.map((code) => ({
  value: code,
  label: LANGUAGE_NAMES[code],
}));

/**
 * The guests' language (General tab): the event's default language (pages, kiosk, mails, SMS),
 * whether a guest's browser language wins, and the operator's own texts per language
 * (`opts.textTranslations`: subject, bodies, SMS, FAQ, terms, face consent), each left empty to
 * use the setting's own text in that language too.
 */
export function GuestLanguageFields() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<EventFormValues>();
  const language = useWatch({ control, name: 'opts.guestLanguage' });
  const translations = (useWatch({ control, name: 'opts.textTranslations' }) ??
    {}) as TextTranslations;
  const [editing, setEditing] = useState<GuestLanguage>(language === 'es' ? 'fr' : 'es');
  const setText = (setting: TranslatableSetting, text: string) => {
    const next: TextTranslations = { ...translations };
    const texts = { ...(next[setting] ?? {}) };
    if (text.trim() === '') delete texts[editing];
    else texts[editing] = text;
    if (Object.keys(texts).length === 0) delete next[setting];
    else next[setting] = texts;
    setValue('opts.textTranslations', next as EventFormValues['opts']['textTranslations'], {
      shouldDirty: true,
    });
  };
  return (
    <>
      <SectionTitle>{t('events.general.languageSection')}</SectionTitle>
      <Select
        name="opts.guestLanguage"
        label={t('events.general.guestLanguage')}
        description={t('events.general.guestLanguageHint')}
        data={LANGUAGE_OPTIONS}
        value={language}
        allowDeselect={false}
        onChange={(value) =>
          value && setValue('opts.guestLanguage', value as GuestLanguage, { shouldDirty: true })
        }
      />
      <FlagCheckbox name="opts.guestLanguageAuto" label={t('events.general.guestLanguageAuto')} />
      <Stack gap="xs">
        <Select
          label={t('events.general.translationsLanguage')}
          description={t('events.general.translationsHint')}
          data={LANGUAGE_OPTIONS}
          value={editing}
          allowDeselect={false}
          onChange={(value) => value && setEditing(value as GuestLanguage)}
        />
        {TRANSLATABLE_SETTINGS.map((setting) => (
          <Textarea
            key={`${setting}-${editing}`}
            name={`opts.textTranslations.${setting}.${editing}`}
            label={t('events.general.translationOf', {
              setting: t(`events.general.translatable.${setting}`),
              language: LANGUAGE_NAMES[editing],
            })}
            autosize
            minRows={setting === 'email_subject' ? 1 : 2}
            value={translations[setting]?.[editing] ?? ''}
            onChange={(event) => setText(setting, event.currentTarget.value)}
          />
        ))}
        <Text size="xs" c="dimmed">
          {t('events.general.translationsFallback')}
        </Text>
      </Stack>
    </>
  );
}
