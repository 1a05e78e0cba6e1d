import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailSuggestions } from '../../../shared/components/email-suggestions.tsx';
import type { LeadParams } from '@flashbulb/shared';
// One by one from its module: the shared `endpoints` map would put the whole contract into the
// album's first load.
import {
  leadConsentText,
  leadConsentVersion,
  leadSubmit,
} from '@flashbulb/shared/api/attendees/leads';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import type { AlbumKey } from '../../../shared/api/guest-album-photos.ts';
import { keyStorageKey, storageKey } from '../utils/lead-token.ts';

/**
 * The lead gate (owner-console §3 `collect_leads`, `lead_params`): name and
 * e-mail, company and phone and the agreement with its privacy link as the event asks, before the
 * album opens. The server stores the consent's text version and time.
 */
export function LeadGate({
  albumKey,
  eventName,
  params,
  emailEnds,
  onDone,
}: {
  albumKey: AlbumKey;
  eventName: string;
  params: LeadParams;
  /** The event's e-mail endings, offered to complete the address. */
  emailEnds?: readonly string[];
  onDone: (leadToken: string) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const id = useId();
  const [values, setValues] = useState({ name: '', email: '', company: '', phone: '' });
  const [consent, setConsent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const consentText = leadConsentText(params);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = (submitted: FormEvent) => {
    submitted.preventDefault();
    setBusy(true);
    setFailure(null);
    callApi(leadSubmit, {
      key_type: albumKey.keyType,
      key_value: albumKey.keyValue,
      full_name: values.name,
      email: values.email,
      ...(params.show_company_input_text === 1 ? { company_name: values.company } : {}),
      ...(params.show_phone_input_text === 1 ? { phone: values.phone } : {}),
      ...(params.show_agree_checkbox === 1
        ? { consent: consent ? 1 : 0, consent_version: leadConsentVersion(params) }
        : {}),
    }).then(
      ({ lead_token }) => {
        try {
          window.localStorage.setItem(storageKey(eventName), lead_token);
          window.localStorage.setItem(keyStorageKey(albumKey.keyValue), lead_token);
        } catch {
          // private mode: the gate asks again next time
        }
        onDone(lead_token);
      },
      (error: unknown) => {
        setBusy(false);
        setFailure(errorText(errorKeyOf(error)));
      },
    );
  };

  return (
    <section className="albums-panel albums-lead-gate" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('albums.lead.title')}</h2>
      <p className="albums-note">{t('albums.lead.intro')}</p>
      <form className="albums-send-photos" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-name`}>{t('albums.lead.name')}</label>
        <input
          id={`${id}-name`}
          autoComplete="name"
          value={values.name}
          onChange={set('name')}
          maxLength={200}
          required
        />
        <label htmlFor={`${id}-email`}>{t('albums.lead.email')}</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          required
          list={`${id}-email-endings`}
        />
        <EmailSuggestions id={`${id}-email-endings`} value={values.email} endings={emailEnds} />
        {params.show_company_input_text === 1 && (
          <>
            <label htmlFor={`${id}-company`}>{t('albums.lead.company')}</label>
            <input
              id={`${id}-company`}
              autoComplete="organization"
              value={values.company}
              onChange={set('company')}
              maxLength={200}
            />
          </>
        )}
        {params.show_phone_input_text === 1 && (
          <>
            <label htmlFor={`${id}-phone`}>{t('albums.lead.phone')}</label>
            <input
              id={`${id}-phone`}
              type="tel"
              autoComplete="tel"
              value={values.phone}
              onChange={set('phone')}
              maxLength={40}
            />
          </>
        )}
        {params.show_agree_checkbox === 1 && (
          <label className="albums-consent">
            <input
              type="checkbox"
              checked={consent}
              onChange={(e) => setConsent(e.target.checked)}
            />
            <span>
              {consentText.text}{' '}
              <a href={consentText.link} target="_blank" rel="noreferrer noopener">
                {t('albums.lead.privacy')}
              </a>
            </span>
          </label>
        )}
        {failure && (
          <p className="albums-form-message" role="alert">
            {failure}
          </p>
        )}
        <button type="submit" className="fb-button--primary" disabled={busy}>
          {t('albums.lead.submit')}
        </button>
      </form>
    </section>
  );
}
