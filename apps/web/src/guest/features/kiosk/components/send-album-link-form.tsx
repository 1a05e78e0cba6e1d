import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidEmail } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { sendAlbumLinkByEmail } from '../../../shared/api/attendee-album.ts';
import { enqueueKioskAction } from '../../../shared/kiosk/kiosk-outbox-actions.ts';
import { useKiosk } from '../../../shared/kiosk/kiosk-context.tsx';
import { useAlbumEvent } from '../../../shared/api/album-event.ts';
import { EmailSuggestions } from '../../../shared/components/email-suggestions.tsx';
import { KioskEmailField } from '../../../shared/components/kiosk-email-field.tsx';

/**
 * A narrow kiosk breaks a button's words at their hyphens ("e-" / "mail"): shown with
 * non-breaking hyphens, the words wrap whole (the name read out keeps the plain text).
 */
const keepHyphenated = (text: string): string => text.replace(/-/g, '\u2011');

type SendResult = Awaited<ReturnType<typeof sendAlbumLinkByEmail>>;

type SendState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; email: string }
  | { kind: 'failed'; text: string };

/**
 * Kiosk attendee pages: the visitor leaves an e-mail address and the album link goes there. The
 * field starts empty — a kiosk is shared, so it never shows the address someone left before.
 */
export function SendAlbumLinkForm({
  attendeeUid,
  kioskKey,
}: {
  attendeeUid: string;
  /** The kiosk's private key (`pvId` / `privateId` of the link): the server needs it. */
  kioskKey: string;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const inputId = useId();
  const messageId = useId();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<SendState>({ kind: 'idle' });
  const kiosk = useKiosk();
  // The kiosk's event (read with its key, cached for the screen): its e-mail endings.
  const kioskEvent = useAlbumEvent({ keyType: 'private', keyValue: kioskKey }, null).data;
  const label =
    state.kind === 'sending' ? t('albums.sendLink.sending') : t('albums.sendLink.submit');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!isValidEmail(address)) {
      setState({ kind: 'failed', text: errorText('email_invalid') });
      return;
    }
    setState({ kind: 'sending' });
    // On a kiosk it goes through the outbox: offline it waits (kept across a reload) and is sent
    // once the network is back.
    const outbox = kiosk?.outbox;
    const sent = outbox
      ? enqueueKioskAction<'send-link', SendResult>(outbox, 'send-link', {
          kioskKey,
          attendeeId: attendeeUid,
          email: address,
        })
      : sendAlbumLinkByEmail(kioskKey, attendeeUid, address);
    sent.then(
      (result) => setState({ kind: 'sent', email: result.email || address }),
      (error: unknown) =>
        setState({
          kind: 'failed',
          text: `${t('albums.sendLink.failed')} ${errorText(errorKeyOf(error))}`,
        }),
    );
  };

  return (
    <form className="albums-send-link" onSubmit={submit} noValidate>
      <KioskEmailField
        id={inputId}
        label={t('albums.sendLink.emailLabel')}
        value={email}
        onChange={setEmail}
        aria-invalid={state.kind === 'failed'}
        aria-describedby={messageId}
        list={`${inputId}-endings`}
      />
      <EmailSuggestions
        id={`${inputId}-endings`}
        value={email}
        endings={kioskEvent?.opts.emailEnds}
      />
      <button type="submit" disabled={state.kind === 'sending'} aria-label={label}>
        {keepHyphenated(label)}
      </button>
      <p id={messageId} className="albums-form-message" aria-live="polite">
        {state.kind === 'sent' && t('albums.sendLink.sent', { email: state.email })}
        {state.kind === 'failed' && <span role="alert">{state.text}</span>}
      </p>
    </form>
  );
}
