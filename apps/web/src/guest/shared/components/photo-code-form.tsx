import * as endpoints from '../../../lib/guest-endpoints.ts';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { normaliseInstantCode } from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../lib/api-client.ts';
import { useErrorText } from '../../../lib/error-text.ts';
import './photo-code-form.css';

/**
 * "Have a photo code?": the short code a booth shows or prints beside its QR code, typed by a
 * guest who cannot scan it. Typed as people type (lower case, spaces, a dash); a text that is no
 * code is said at once, a code is checked with the server (the instant lookup, rate limited per
 * address), and a photo's code opens its instant page (`onFound` with `<event>-<code>`).
 */
export function PhotoCodeForm({
  eventName,
  onFound,
  buttonClassName = 'fb-button--primary',
}: {
  eventName: string;
  onFound: (instant: string) => void;
  /** The page's own primary button (the web-app page has its own styles). */
  buttonClassName?: string;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const id = useId();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = normaliseInstantCode(typed);
    if (!code) {
      setError(t('albums.photoCode.invalid'));
      return;
    }
    const instant = `${eventName}-${code}`;
    setBusy(true);
    setError(null);
    callApi(endpoints.retrieveInstantPhoto, { instant }).then(
      () => {
        setBusy(false);
        onFound(instant);
      },
      (failure: unknown) => {
        setBusy(false);
        const key = errorKeyOf(failure);
        setError(key === 'not_found' ? t('albums.photoCode.notFound') : errorText(key));
      },
    );
  };

  return (
    <form className="photo-code" onSubmit={submit} noValidate>
      <label htmlFor={id}>{t('albums.photoCode.label')}</label>
      <p className="photo-code-hint" id={`${id}-hint`}>
        {t('albums.photoCode.hint')}
      </p>
      <div className="photo-code-row">
        <input
          id={id}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          inputMode="text"
          maxLength={20}
          aria-describedby={`${id}-hint`}
          aria-invalid={error ? true : undefined}
        />
        <button type="submit" className={buttonClassName} disabled={busy}>
          {t('albums.photoCode.submit')}
        </button>
      </div>
      {error && (
        <p className="photo-code-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
