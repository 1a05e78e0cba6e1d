import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { groupCardsAtKiosk } from '../../../shared/api/kiosk-actions.ts';

/** The card ids typed or scanned into the field: split on commas, spaces and new lines. */
export const cardIdsOf = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((id) => id.trim())
    .filter(Boolean);

/**
 * Staff group a family's cards at the kiosk: the open album's card keeps the album and gains the
 * photos of the cards scanned here (the server checks each: open, of this event, recent enough).
 */
export function KioskCardGroup({
  kioskKey,
  attendeeUid,
}: {
  kioskKey: string;
  attendeeUid: string;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const fieldId = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);

  const submit = async () => {
    if (busy) return;
    setBusy(true);
    setNote(null);
    try {
      const result = await groupCardsAtKiosk(kioskKey, [attendeeUid, ...cardIdsOf(text)]);
      setText('');
      setNote({
        ok: true,
        text: t('albums.kiosk.cardGroup.done', {
          count: result.attached_count,
          id: result.attendee_uid,
        }),
      });
    } catch (error) {
      setNote({ ok: false, text: errorText(errorKeyOf(error)) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="kiosk-field"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={fieldId}>{t('albums.kiosk.cardGroup.label')}</label>
      <input
        id={fieldId}
        type="text"
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="characters"
        spellCheck={false}
        enterKeyHint="go"
        value={text}
        aria-describedby={note ? `${fieldId}-note` : undefined}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" disabled={busy || cardIdsOf(text).length === 0}>
        {t('albums.kiosk.cardGroup.submit')}
      </button>
      {note && (
        <span
          id={`${fieldId}-note`}
          className={`kiosk-field-note${note.ok ? '' : ' kiosk-field-note--error'}`}
          role={note.ok ? 'status' : 'alert'}
        >
          {note.text}
        </span>
      )}
    </form>
  );
}
