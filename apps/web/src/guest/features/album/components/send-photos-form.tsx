import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useAlbumEvent } from '../../../shared/api/album-event.ts';
import { EmailSuggestions } from '../../../shared/components/email-suggestions.tsx';
import type { AlbumKey } from '../../../shared/api/guest-album-photos.ts';
import { sendMiniAlbum, type MiniAlbumSent } from '../api/mini-album.ts';

type SendState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; result: MiniAlbumSent }
  | { kind: 'failed'; text: string; field: string | null };

/** Which input a refusal belongs to, so the message sits beside it. */
const FIELD_OF_KEY: Record<string, string> = {
  email_invalid: 'emails',
  recipient_required: 'emails',
  phone_invalid: 'phone',
  sms_not_enabled: 'phone',
  consent_required: 'consent',
};

/**
 * Sends the chosen photos as a mini-album link (albums §5, §7.2): the recipient's name, e-mail
 * addresses (a comma-separated list) and — where the event sends SMS — a US mobile number; where
 * the event collects leads, the lead fields and the consent it asks for. The server checks
 * everything; its refusals show beside their fields.
 */
export function SendPhotosForm({
  albumKey,
  eventName,
  photoUids,
  onSent,
}: {
  albumKey: AlbumKey;
  eventName: string | null;
  photoUids: readonly string[];
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const ids = {
    name: useId(),
    emails: useId(),
    phone: useId(),
    company: useId(),
    contact: useId(),
    consent: useId(),
    message: useId(),
  };
  const event = useAlbumEvent(albumKey, eventName, true).data;
  const [name, setName] = useState('');
  const [emails, setEmails] = useState('');
  const [phone, setPhone] = useState('');
  const [company, setCompany] = useState('');
  const [contact, setContact] = useState('');
  const [consent, setConsent] = useState(false);
  const [state, setState] = useState<SendState>({ kind: 'idle' });

  const sms = event?.is_sms_enabled === 1;
  const leads = event?.collect_leads === 1 ? event.lead_params : null;

  const submit = (submitted: FormEvent) => {
    submitted.preventDefault();
    if (photoUids.length === 0) {
      setState({ kind: 'failed', text: errorText('photos_required'), field: null });
      return;
    }
    setState({ kind: 'sending' });
    sendMiniAlbum(albumKey, photoUids, {
      receiver_full_name: name.trim(),
      email_to_address_array: emails.trim() ? [emails.trim()] : [],
      ...(sms && phone.trim() ? { sms_number: phone.trim() } : {}),
      ...(leads
        ? {
            receiver_company_name: company.trim() || null,
            contact_phone_number: contact.trim() || null,
            receiver_consent: consent ? 1 : 0,
          }
        : {}),
    }).then(
      (result) => {
        setState({ kind: 'sent', result });
        onSent();
      },
      (error: unknown) => {
        const key = errorKeyOf(error);
        setState({
          kind: 'failed',
          text: `${t('albums.send.failed')} ${errorText(key)}`,
          field: FIELD_OF_KEY[key] ?? null,
        });
      },
    );
  };

  const invalid = (field: string) => state.kind === 'failed' && state.field === field;
  const sent = state.kind === 'sent' ? state.result : null;

  return (
    <form
      className="albums-send-photos"
      onSubmit={submit}
      noValidate
      aria-describedby={ids.message}
    >
      <p className="albums-send-count">{t('albums.send.chosen', { count: photoUids.length })}</p>
      <label htmlFor={ids.name}>{t('albums.send.name')}</label>
      <input
        id={ids.name}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={200}
      />
      <label htmlFor={ids.emails}>{t('albums.send.emails')}</label>
      <input
        id={ids.emails}
        type="email"
        multiple
        autoComplete="off"
        value={emails}
        onChange={(e) => setEmails(e.target.value)}
        aria-invalid={invalid('emails')}
        aria-describedby={ids.message}
        placeholder={t('albums.send.emailsHint')}
        list={`${ids.emails}-endings`}
      />
      <EmailSuggestions
        id={`${ids.emails}-endings`}
        value={emails}
        endings={event?.opts.emailEnds}
      />
      {sms && (
        <>
          <label htmlFor={ids.phone}>{t('albums.send.phone')}</label>
          <input
            id={ids.phone}
            type="tel"
            autoComplete="off"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            aria-invalid={invalid('phone')}
            aria-describedby={ids.message}
          />
        </>
      )}
      {leads?.show_company_input_text === 1 && (
        <>
          <label htmlFor={ids.company}>{t('albums.send.company')}</label>
          <input
            id={ids.company}
            value={company}
            onChange={(e) => setCompany(e.target.value)}
            maxLength={200}
          />
        </>
      )}
      {leads?.show_phone_input_text === 1 && (
        <>
          <label htmlFor={ids.contact}>{t('albums.send.contactPhone')}</label>
          <input
            id={ids.contact}
            type="tel"
            value={contact}
            onChange={(e) => setContact(e.target.value)}
          />
        </>
      )}
      {leads && (
        <div className="albums-consent">
          <input
            id={ids.consent}
            type="checkbox"
            checked={consent}
            onChange={(e) => setConsent(e.target.checked)}
            aria-invalid={invalid('consent')}
          />
          <label htmlFor={ids.consent}>
            {leads.please_read_text || t('albums.send.consent')}
            {leads.privacy_policy_link && /^https?:\/\//i.test(leads.privacy_policy_link) && (
              <>
                {' '}
                <a href={leads.privacy_policy_link} target="_blank" rel="noreferrer noopener">
                  {t('albums.send.privacy')}
                </a>
              </>
            )}
          </label>
        </div>
      )}
      <button type="submit" disabled={state.kind === 'sending'}>
        {state.kind === 'sending' ? t('albums.send.sending') : t('albums.send.submit')}
      </button>
      <p id={ids.message} className="albums-form-message" aria-live="polite">
        {sent &&
          t('albums.send.sent', {
            count: sent.emailed_addresses.length + sent.sms_count,
            to: [...sent.emailed_addresses, ...(sent.sms_count > 0 ? [phone.trim()] : [])].join(
              ', ',
            ),
          })}
        {state.kind === 'failed' && <span role="alert">{state.text}</span>}
      </p>
    </form>
  );
}
