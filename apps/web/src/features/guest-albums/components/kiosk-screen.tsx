import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { countdownText, kioskDeleteAllowed } from '@flashbulb/shared';
import {
  kioskReturnUrl,
  kioskTimeoutFrom,
  useKioskDevice,
  useKioskSession,
  useThrottled,
} from '../hooks/use-kiosk-session.ts';

/**
 * The kiosk screen around a guest's album (albums §2.4, §4; owner-console §9): an actions area
 * with exactly one of 'Look up my images by face' and '< Back to album', the countdown to the
 * page-active timeout, an "I'm done" button, the offline banner, the stories print pool dropdown
 * and the vip-token input. Idle, it clears the guest's data and returns to the kiosk entry page.
 *
 * Mount points for the parallel issues (one line each where the kiosk page renders this):
 * - `faceLookup`: the face-lookup component (faces issue), shown instead of the album while the
 *   guest looks up their images by face; '< Back to album' returns.
 * - `checkout`: the kiosk checkout component (paid-albums issue), under the actions.
 */
export function KioskScreen({
  children,
  faceLookup = null,
  faceLookupOff = false,
  checkout = null,
  printPools = [],
  onPrintPoolChange,
  onVipToken,
}: {
  children: ReactNode;
  /** MOUNT POINT (faces issue): `<FaceLookup …/>`. */
  faceLookup?: ReactNode;
  /** The event has face recognition off or selfies disabled: no face lookup button at all. */
  faceLookupOff?: boolean;
  /** MOUNT POINT (paid-albums issue): `<KioskCheckout …/>`. */
  checkout?: ReactNode;
  /** The event's stories print pools (`printerPoolList`); the dropdown shows with two or more. */
  printPools?: readonly string[];
  onPrintPoolChange?: (pool: string) => void;
  /** A VIP token typed at the kiosk (photos still inside the VIP photo delay). */
  onVipToken?: (token: string) => void;
}) {
  const { t } = useTranslation();
  const location = window.location;
  const returnUrl = useMemo(() => kioskReturnUrl(location), [location]);
  const timeoutMs = useMemo(() => kioskTimeoutFrom(location.search), [location.search]);
  const session = useKioskSession({ timeoutMs, returnUrl });
  useKioskDevice();
  const [faceMode, setFaceMode] = useState(false);
  const toggleFace = useThrottled(() => setFaceMode((on) => !on));
  const endNow = useThrottled(() => void session.endSession());
  const poolId = useId();
  const vipId = useId();
  const [vip, setVip] = useState('');

  if (session.ended) {
    return (
      <div className="kiosk-screen kiosk-screen--ended" data-kiosk-screen="ended">
        <p className="kiosk-times-up" role="status">
          {t('albums.kiosk.timesUp')}
        </p>
        <p className="albums-message">{t('albums.kiosk.ending')}</p>
        {session.offline && <OfflineBanner />}
      </div>
    );
  }
  return (
    <div
      className="kiosk-screen"
      data-kiosk-screen="active"
      data-user-active={session.active ? 'true' : 'false'}
    >
      {session.offline && <OfflineBanner />}
      <div className="kiosk-bar">
        <div className="kiosk-actions" data-kiosk-actions>
          {faceLookupOff ? null : faceMode ? (
            <button type="button" className="kiosk-action" onClick={toggleFace}>
              {t('albums.kiosk.backToAlbum')}
            </button>
          ) : (
            <button type="button" className="kiosk-action" onClick={toggleFace}>
              {t('albums.kiosk.lookUpByFace')}
            </button>
          )}
        </div>
        {printPools.length > 1 && (
          <label className="kiosk-field" htmlFor={poolId}>
            {t('albums.kiosk.printPool')}
            <select
              id={poolId}
              defaultValue={printPools[0]}
              onChange={(event) => onPrintPoolChange?.(event.target.value)}
            >
              {printPools.map((pool) => (
                <option key={pool} value={pool}>
                  {pool}
                </option>
              ))}
            </select>
          </label>
        )}
        {onVipToken && (
          <form
            className="kiosk-field"
            onSubmit={(event) => {
              event.preventDefault();
              if (vip.trim()) onVipToken(vip.trim());
            }}
          >
            <label htmlFor={vipId}>{t('albums.kiosk.vipToken')}</label>
            <input
              id={vipId}
              type="text"
              inputMode="text"
              autoComplete="off"
              autoCorrect="off"
              spellCheck={false}
              enterKeyHint="go"
              value={vip}
              onChange={(event) => setVip(event.target.value)}
            />
          </form>
        )}
        <span className="kiosk-countdown" aria-live="off" data-kiosk-countdown>
          {session.remainingMs > 0
            ? t('albums.kiosk.timeLeft', { time: countdownText(session.remainingMs) })
            : t('albums.kiosk.timesUp')}
        </span>
        <button type="button" className="kiosk-done" onClick={endNow}>
          {t('albums.kiosk.done')}
        </button>
      </div>
      {checkout && <div className="kiosk-checkout-slot">{checkout}</div>}
      {faceMode && !faceLookupOff ? (
        <div className="kiosk-face-slot" data-mount="face-lookup">
          {faceLookup ?? <p className="albums-message">{t('albums.kiosk.faceLookupSoon')}</p>}
        </div>
      ) : (
        children
      )}
    </div>
  );
}

function OfflineBanner() {
  const { t } = useTranslation();
  return (
    <div className="kiosk-offline" role="status" data-kiosk-offline>
      {t('albums.kiosk.offline')}
    </div>
  );
}

/** Whether this kiosk may delete photos (§6): the flag in the query or in local storage. */
export const kioskDeleteAllowedHere = (search: string): boolean => {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem('allowKioskPhotoDelete');
  } catch {
    stored = null;
  }
  return kioskDeleteAllowed(new URLSearchParams(search).get('allowKioskPhotoDelete'), stored);
};

/**
 * The kiosk photo delete gate (§4): offered only where allowed; asks Keep or Delete before
 * `onDelete` runs. Nothing is deleted on Keep.
 */
export function KioskDeleteGate({
  allowed,
  photoName,
  onDelete,
}: {
  allowed: boolean;
  photoName: string;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const confirm = useThrottled(() => {
    setAsking(false);
    onDelete();
  });
  if (!allowed) return null;
  if (!asking)
    return (
      <button
        type="button"
        className="kiosk-delete"
        aria-label={`${t('albums.kiosk.deletePhoto')}: ${photoName}`}
        onClick={() => setAsking(true)}
      >
        {t('albums.kiosk.deletePhoto')}
      </button>
    );
  return (
    <div role="alertdialog" aria-label={t('albums.kiosk.deleteConfirm')} className="kiosk-confirm">
      <p>{t('albums.kiosk.deleteConfirm')}</p>
      <button type="button" onClick={() => setAsking(false)}>
        {t('albums.kiosk.keep')}
      </button>
      <button type="button" className="kiosk-confirm-delete" onClick={confirm}>
        {t('albums.kiosk.delete')}
      </button>
    </div>
  );
}
