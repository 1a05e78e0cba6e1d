import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebappEvent } from '@flashbulb/shared';
import { errorKeyOf, isApiError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useWebappEvent, useWebappRegister } from '../api/webapp.ts';
import { Icon } from '../../../shared/components/icons.tsx';
import { EmailSuggestions } from '../../../shared/components/email-suggestions.tsx';
import { LanguageSwitcher } from '../../../shared/components/language-switcher.tsx';
import { useGuestLanguage } from '../../../shared/hooks/use-guest-language.ts';
import { PhotoCodeForm } from '../../../shared/components/photo-code-form.tsx';
import { isGuestLanguage, translatedText } from '@flashbulb/shared/i18n/languages';
import { accentStyle } from '../../../shared/theme/accent.ts';
import '../webapp.css';

/**
 * Where "Find me" by selfie mounts: the app composes the faces feature's `FaceLookup`
 * into it (src/guest/app/albums-root.tsx) when the link carries the event's public key as `token`.
 */
function FindMeSlot({ children }: { children: React.ReactNode }) {
  return <>{children}</>;
}

/** The page's own text in the guest's language when the operator gave one (opts.textTranslations). */
const useEventText = (event: WebappEvent) => {
  const { i18n } = useTranslation();
  const language = isGuestLanguage(i18n.language) ? i18n.language : 'en';
  return (own: string, setting: 'faqText' | 'agreementText') =>
    translatedText(own, event.text_translations, setting, language);
};

const Linked = ({ link, children }: { link: string; children: React.ReactNode }) =>
  link ? (
    <a href={link} target="_blank" rel="noopener noreferrer" className="webapp-plain-link">
      {children}
    </a>
  ) : (
    <>{children}</>
  );

/**
 * The support chat (`supportChatKey`): a launcher fixed at the corner that opens the organiser's
 * chat link in a new tab. No provider script is loaded, so nothing of a third party runs here.
 */
function SupportChatLauncher({ url }: { url: string }) {
  const { t } = useTranslation();
  return (
    <a
      className="webapp-chat-launcher"
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('webapp.supportChatLabel')}
    >
      <Icon name="chat" size={22} />
      <span>{t('webapp.supportChat')}</span>
    </a>
  );
}

function RegisterForm({ event }: { event: WebappEvent }) {
  const { t } = useTranslation();
  const agreementText = useEventText(event)(event.agreement_text, 'agreementText');
  const errorText = useErrorText();
  const id = useId();
  const register = useWebappRegister();
  const byId = event.registration_type === 'byIdFirst';
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [card, setCard] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [phone, setPhone] = useState('');
  const [smsAgreed, setSmsAgreed] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    if (agreementText.trim() && !agreed) {
      setProblem(t('webapp.agreementRequired'));
      return;
    }
    register.mutate(
      {
        event_name: event.name,
        email: event.collect_email ? email : '',
        name,
        attendee_uid: card,
        phone,
        sms_agreement: smsAgreed ? 1 : 0,
      },
      {
        onSuccess: (result) => {
          if (event.redirect_to_webapp && result.album_url)
            window.location.assign(result.album_url);
        },
        onError: (error) =>
          setProblem(errorText(isApiError(error) ? error.messageKey : errorKeyOf(error))),
      },
    );
  };

  if (register.data) {
    const r = register.data;
    return (
      <section className="webapp-card" aria-live="polite">
        <h2>{t('webapp.doneTitle')}</h2>
        {r.emailed && (
          <p>
            {r.album_url
              ? t('webapp.doneEmailed', { email })
              : t('webapp.doneExistingEmailed', { email })}
          </p>
        )}
        {r.sms_sent && <p>{t('webapp.doneSms')}</p>}
        {r.album_url && (
          <a className="webapp-button" href={r.album_url}>
            {t('webapp.openAlbum')}
          </a>
        )}
      </section>
    );
  }

  return (
    <form className="webapp-card" onSubmit={submit} noValidate aria-describedby={`${id}-hint`}>
      <h2>{t('webapp.registerTitle')}</h2>
      <p id={`${id}-hint`} className="webapp-muted">
        {byId ? t('webapp.registerHintById') : t('webapp.registerHint')}
      </p>
      {byId && (
        <label className="webapp-field">
          <span>{t('webapp.cardId')}</span>
          <input
            value={card}
            onChange={(e) => setCard(e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            required
          />
        </label>
      )}
      <label className="webapp-field">
        <span>{t('webapp.name')}</span>
        <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
      </label>
      {event.collect_email && (
        <label className="webapp-field">
          <span>{byId ? t('webapp.emailOptional') : t('webapp.email')}</span>
          <input
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="email"
            inputMode="email"
            required={!byId}
            list={`${id}-email-endings`}
          />
          <EmailSuggestions id={`${id}-email-endings`} value={email} endings={event.email_ends} />
        </label>
      )}
      {event.sms_enabled && (
        <fieldset className="webapp-sms">
          <legend>{t('webapp.smsTitle')}</legend>
          <label className="webapp-field">
            <span>{t('webapp.phone')}</span>
            <input
              type="tel"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              autoComplete="tel"
            />
          </label>
          {event.sms_agreement.trim() && <p className="webapp-small">{event.sms_agreement}</p>}
          <label className="webapp-check">
            <input
              type="checkbox"
              checked={smsAgreed}
              onChange={(e) => setSmsAgreed(e.target.checked)}
            />
            <span>{t('webapp.smsAgree')}</span>
          </label>
        </fieldset>
      )}
      {agreementText.trim() && (
        <details className="webapp-details">
          <summary>{t('webapp.agreement')}</summary>
          <p className="webapp-pre">{agreementText}</p>
        </details>
      )}
      {agreementText.trim() && (
        <label className="webapp-check">
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
          <span>{t('webapp.agree')}</span>
        </label>
      )}
      {problem && (
        <p className="webapp-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="webapp-button" disabled={register.isPending}>
        {register.isPending ? t('webapp.submitting') : t('webapp.submit')}
      </button>
    </form>
  );
}

/**
 * The event's web-app page `/?eName=<code>[&token=…]` (albums spec §2.1, §2.6 web-app tab): logo
 * (linked to `logo_link`), background, top and bottom banners with their links, title and
 * description, registration, FAQ, agreement and support link. The Open Graph tags of this URL
 * are written by the server into the HTML shell.
 */
const EMPTY_EVENT = { text_translations: {} } as unknown as WebappEvent;

export default function WebappPage({
  eventName,
  findMe = null,
  albumUrl = null,
}: {
  eventName: string;
  /** The event's public album, when the link carries its public key as `token`. */
  albumUrl?: string | null;
  /** "Find me" by selfie, composed in by the app (faces feature) with the page's settings. */
  findMe?: ((event: WebappEvent) => React.ReactNode) | null;
}) {
  const { t } = useTranslation();
  const query = useWebappEvent(eventName);
  // The event's language, unless the guest chose one or their browser may decide.
  useGuestLanguage(
    query.data
      ? {
          guestLanguage: query.data.guest_language,
          guestLanguageAuto: query.data.guest_language_auto ? 1 : 0,
        }
      : undefined,
    false,
  );
  const eventText = useEventText(query.data ?? EMPTY_EVENT);
  if (query.isPending)
    return (
      <main className="webapp-root">
        <p className="webapp-card" role="status">
          {t('webapp.loading')}
        </p>
      </main>
    );
  if (query.isError || !query.data)
    return (
      <main className="webapp-root">
        <p className="webapp-card" role="alert">
          {isApiError(query.error) && query.error.messageKey === 'event_not_found'
            ? t('webapp.notFound')
            : t('webapp.loadError')}
        </p>
      </main>
    );
  const event = query.data;
  const logo = event.logo?.src ?? event.logo_full_path;
  return (
    <main
      className={event.support_chat_url ? 'webapp-root webapp-root--chat' : 'webapp-root'}
      style={{
        ...accentStyle(event.accent_color),
        ...(event.background
          ? { backgroundImage: `url("${encodeURI(event.background.src)}")` }
          : undefined),
      }}
      data-testid="webapp-page"
    >
      {event.banner_top && (
        <Linked link={event.banner_top.link}>
          <img className="webapp-banner" src={event.banner_top.src} alt={t('webapp.bannerAlt')} />
        </Linked>
      )}
      <p className="webapp-language">
        <LanguageSwitcher />
      </p>
      <header className="webapp-header">
        {logo && (
          <Linked link={event.logo?.link || event.logo_link}>
            <img
              className="webapp-logo"
              src={logo}
              alt={t('webapp.logoAlt', { name: event.full_name })}
            />
          </Linked>
        )}
        {/* Without the event label the page keeps its heading for screen readers. */}
        <h1 className={event.show_event_label ? undefined : 'webapp-visually-hidden'}>
          {event.share_title.trim() || event.full_name}
        </h1>
        {event.description.trim() && <p className="webapp-pre">{event.description}</p>}
        {event.time_in_time_text.trim() && (
          <p className="webapp-time-in-time webapp-pre" data-testid="webapp-time-in-time">
            {event.time_in_time_text}
          </p>
        )}
      </header>
      {albumUrl && (
        <p className="webapp-album-link">
          <a className="webapp-button webapp-button--secondary" href={albumUrl}>
            {t('webapp.seePhotos')}
          </a>
        </p>
      )}
      <RegisterForm event={event} />
      <section className="webapp-card">
        <PhotoCodeForm
          eventName={event.name}
          buttonClassName="webapp-button"
          onFound={(instant) => window.location.assign(`/?instant=${encodeURIComponent(instant)}`)}
        />
      </section>
      <FindMeSlot>{findMe?.(event)}</FindMeSlot>
      {event.faq_text.trim() && (
        <section className="webapp-card">
          <details className="webapp-details">
            <summary>{t('webapp.faq')}</summary>
            <p className="webapp-pre">{eventText(event.faq_text, 'faqText')}</p>
          </details>
        </section>
      )}
      {event.support_link && (
        <p className="webapp-footer">
          <a href={event.support_link} target="_blank" rel="noopener noreferrer">
            {t('webapp.support')}
          </a>
        </p>
      )}
      {event.banner_bottom && (
        <Linked link={event.banner_bottom.link}>
          <img
            className="webapp-banner"
            src={event.banner_bottom.src}
            alt={t('webapp.bannerAlt')}
          />
        </Linked>
      )}
      {event.support_chat_url && <SupportChatLauncher url={event.support_chat_url} />}
    </main>
  );
}
