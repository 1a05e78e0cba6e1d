import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { checkStaffPin } from '../../../shared/api/kiosk-actions.ts';

/** The staff gesture: this many taps in the kiosk's top-left corner … */
export const STAFF_TAPS = 5;
/** … within this long. A guest brushing the corner never gets there. */
export const STAFF_TAP_WINDOW_MS = 3000;
/** A staff PIN is 4 to 8 digits (the event's setting). */
const PIN_MAX = 8;

/**
 * The staff gesture's target: an unmarked square in the top-left corner (over the event's logo).
 * Five taps within three seconds ask for the staff PIN; anything less does nothing a guest sees.
 */
export function StaffCorner({ onGesture }: { onGesture: () => void }) {
  const taps = useRef<number[]>([]);
  return (
    <div
      className="kiosk-staff-corner"
      data-kiosk-staff-corner
      aria-hidden="true"
      onClick={() => {
        const now = Date.now();
        taps.current = [...taps.current.filter((at) => now - at < STAFF_TAP_WINDOW_MS), now];
        if (taps.current.length < STAFF_TAPS) return;
        taps.current = [];
        onGesture();
      }}
    />
  );
}

/**
 * The staff PIN prompt: a keypad for touch screens (a keyboard types too). The server checks the
 * PIN (the kiosk's key with its display token); a refusal says why and opens nothing.
 */
export function StaffPinDialog({
  kioskKey,
  onOpened,
  onCancel,
}: {
  kioskKey: string;
  onOpened: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const titleId = useId();
  const inputId = useId();
  const [pin, setPin] = useState('');
  const [checking, setChecking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (checking) return;
    if (!pin) {
      setRefusal(errorText('invalid_staff_pin'));
      return;
    }
    setChecking(true);
    setRefusal(null);
    checkStaffPin(kioskKey, pin).then(
      () => onOpened(),
      (error: unknown) => {
        setChecking(false);
        setPin('');
        setRefusal(errorText(errorKeyOf(error)));
      },
    );
  };
  const press = (digit: string) => setPin((now) => (now.length < PIN_MAX ? now + digit : now));

  return (
    <div className="kiosk-confirm-backdrop">
      <form
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="kiosk-confirm kiosk-staff-pin"
        onSubmit={submit}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
      >
        <p id={titleId}>{t('albums.kiosk.staff.pinTitle')}</p>
        <label htmlFor={inputId}>{t('albums.kiosk.staff.pin')}</label>
        <input
          id={inputId}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={PIN_MAX}
          autoFocus
          value={pin}
          aria-invalid={refusal !== null}
          onChange={(event) => setPin(event.target.value.replace(/\D/g, '').slice(0, PIN_MAX))}
        />
        <div className="kiosk-keypad" role="group" aria-label={t('albums.kiosk.staff.keypad')}>
          {['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => (
            <button key={digit} type="button" onClick={() => press(digit)}>
              {digit}
            </button>
          ))}
          <button
            type="button"
            aria-label={t('albums.kiosk.staff.clear')}
            onClick={() => setPin('')}
          >
            C
          </button>
          <button type="button" onClick={() => press('0')}>
            0
          </button>
          <button
            type="button"
            aria-label={t('albums.kiosk.staff.backspace')}
            onClick={() => setPin((now) => now.slice(0, -1))}
          >
            ⌫
          </button>
        </div>
        {refusal && (
          <p className="kiosk-field-note kiosk-field-note--error" role="alert">
            {refusal}
          </p>
        )}
        <div className="kiosk-confirm-actions">
          <button type="button" onClick={onCancel}>
            {t('albums.kiosk.staff.cancel')}
          </button>
          <button type="submit" className="fb-button--primary" disabled={checking}>
            {t('albums.kiosk.staff.open')}
          </button>
        </div>
      </form>
    </div>
  );
}
