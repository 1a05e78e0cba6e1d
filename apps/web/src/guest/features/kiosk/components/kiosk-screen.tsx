// Over ~350 lines on purpose: KioskScreen is one kiosk session (idle timer, card scan, outbox,
// camera) whose state its children read through the kiosk context; the offline banner and the
// delete confirm beside it are small.
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  countdownText,
  kioskDeleteAllowed,
  kioskStillTherePromptMs,
  showPrintImageList,
} from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  printingFieldsOf,
  useAlbumEvent,
  type EventPrintingFields,
} from '../../../shared/api/album-event.ts';
import { useGuestLanguage } from '../../../shared/hooks/use-guest-language.ts';
import { accentStyle } from '../../../shared/theme/accent.ts';
import type { AlbumKey } from '../../../shared/api/guest-album-photos.ts';
import { checkVipToken } from '../../../shared/api/kiosk-actions.ts';
import {
  kioskReturnUrl,
  kioskTimeoutFrom,
  useKioskDevice,
  useKioskServiceWorker,
  useKioskSession,
  useThrottled,
} from '../hooks/use-kiosk-session.ts';
import { KioskOutbox, outboxStorageKey } from '../../../shared/kiosk/kiosk-outbox.ts';
import { KIOSK_ACTION_RUNNERS } from '../../../shared/kiosk/kiosk-outbox-actions.ts';
import {
  KioskContext,
  useOutboxState,
  type KioskSession,
} from '../../../shared/kiosk/kiosk-context.tsx';
import { KioskCardGroup } from './kiosk-card-group.tsx';
import { KioskConfirm, KioskQuestion } from './kiosk-confirm.tsx';
import { KioskPhotoBooth } from './kiosk-photo-booth.tsx';
import { StaffCorner, StaffPinDialog } from './kiosk-staff.tsx';
import { PrinterPoolOptions } from '../../../shared/components/printer-pool-options.tsx';

/** §9: at most 20 photos in one print request. */
const PRINT_PHOTOS_MAX = 20;

/** §3 kiosk event param `printerPoolList` (comma list) of the link, else the event's own pools. */
export const kioskPrinterPools = (
  search: string,
  eventPools: readonly string[] | null | undefined,
  poolsEnabled: boolean,
): string[] => {
  const fromLink = new URLSearchParams(search).get('printerPoolList');
  const pools = fromLink !== null ? fromLink.split(',') : poolsEnabled ? (eventPools ?? []) : [];
  return [...new Set(pools.map((pool) => pool.trim()).filter(Boolean))];
};

type Panel = 'album' | 'face' | 'camera';

/** A page of an album's photo list (`albumQueryKey(…)` + `'page'`, VIP lists included). */
const isPhotoPageKey = (key: readonly unknown[]): boolean => key.includes('page');

/** The printing fields of the event as the kiosk's private key reads it. */
interface PrintingFields extends EventPrintingFields {
  /** The kiosk's opts (KIOSK_EVENT_OPTS): the print step's texts, the checkout's QR choice. */
  opts?: {
    printHeaderMessage?: string;
    printFooterMessage?: string;
    printConfirmMessage?: string;
    printingConfirmationText?: string;
    qrAtKioskCheckout?: number;
  };
}

/**
 * The kiosk screen around a guest's album (albums §2.4, §3, §4; owner-console §9): an actions area
 * with exactly one of 'Look up my images by face' and '< Back to album', the kiosk camera, the
 * stories print pool dropdown, the vip-token input, the countdown to the page-active timeout, an
 * "I'm done" button and the offline banner. Every action of the pages inside goes through the
 * kiosk's outbox (waits and retries while offline); idle, the session waits for the outbox, clears
 * the guest's data and returns to the kiosk entry page.
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
  kioskKey = null,
  attendeeUid = null,
  albumKey = null,
}: {
  children: ReactNode;
  /** MOUNT POINT (faces issue): `<FaceLookup …/>`. */
  faceLookup?: ReactNode;
  /** The event has face recognition off or selfies disabled: no face lookup button at all. */
  faceLookupOff?: boolean;
  /** MOUNT POINT (paid-albums issue): `<KioskCheckout …/>`. */
  checkout?: ReactNode;
  /** The kiosk's private key from the link: printing, camera, delete and the event's settings. */
  kioskKey?: string | null;
  /** The guest whose album this is (the scanned card). */
  attendeeUid?: string | null;
  /** The key the album lists with (the VIP token is checked with it). */
  albumKey?: AlbumKey | null;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const location = window.location;
  const returnUrl = useMemo(() => kioskReturnUrl(location), [location]);
  // Waiting actions are kept per kiosk (its key): a reload in the middle of a session sends them.
  const [outbox] = useState(
    () =>
      new KioskOutbox(undefined, {
        storageKey: kioskKey ? outboxStorageKey(kioskKey) : null,
        runners: KIOSK_ACTION_RUNNERS,
      }),
  );
  const outboxState = useOutboxState(outbox);
  const kioskEventKey = useMemo(
    (): AlbumKey => ({ keyType: 'private', keyValue: kioskKey ?? '' }),
    [kioskKey],
  );
  const eventQuery = useAlbumEvent(kioskEventKey, null, kioskKey !== null);
  const event = eventQuery.data;
  // The event's brand on every panel of the session: its colour (the bar's buttons, checkout,
  // face lookup, photo booth) and its logo.
  const accent = useMemo(() => accentStyle(event?.opts.guestAccentColor ?? ''), [event]);
  // A shared screen: the event's language, or the one its entry screen's switcher passed on.
  useGuestLanguage(event?.opts, true);
  // The event's session expiry (owner console, Options), unless the kiosk's link sets its own.
  const sessionExpiry = event?.opts.sessionExpiryMinutes ?? null;
  const timeoutMs = useMemo(
    () => kioskTimeoutFrom(location.search, sessionExpiry),
    [location.search, sessionExpiry],
  );
  const session = useKioskSession({ timeoutMs, returnUrl, outbox });
  useKioskDevice();
  // The photo cache follows the event (photoCashingForKioskEnabled); without its key, no cache.
  useKioskServiceWorker(
    kioskKey === null
      ? false
      : eventQuery.isPending
        ? null
        : eventQuery.data?.opts.photoCashingForKioskEnabled === 1,
  );
  const [panel, setPanel] = useState<Panel>('album');
  const queryClient = useQueryClient();
  // What an earlier page of this kiosk left waiting runs now; the album then shows its effect.
  const albumKeyType = albumKey?.keyType ?? null;
  const albumKeyValue = albumKey?.keyValue ?? null;
  useEffect(() => {
    outbox.resume();
    const off = outbox.onReplayed(() => {
      if (albumKeyType !== null)
        void queryClient.invalidateQueries({ queryKey: ['albums', albumKeyType, albumKeyValue] });
    });
    outbox.restore();
    return () => {
      off();
      outbox.stop();
    };
  }, [outbox, albumKeyType, albumKeyValue, queryClient]);
  // The album was off screen while the camera was: read its photos again (a photo just taken may
  // be in). Only the photo pages: the attendee and the event are what they were, and asking for
  // them again when the network has just gone would turn the album into an error page.
  const backFromCamera = () => {
    setPanel('album');
    if (albumKey)
      void queryClient.invalidateQueries({
        queryKey: ['albums', albumKey.keyType, albumKey.keyValue],
        predicate: (query) => isPhotoPageKey(query.queryKey),
      });
  };
  const toggleFace = useThrottled(() => {
    if (panel === 'camera') backFromCamera();
    else setPanel((now) => (now === 'album' ? 'face' : 'album'));
  });
  const openCamera = useThrottled(() => setPanel('camera'));
  const endNow = useThrottled(() => void session.endSession());
  const poolId = useId();
  const vipId = useId();
  const [vip, setVip] = useState('');
  const [vipToken, setVipToken] = useState<string | null>(null);
  const [vipNote, setVipNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [pool, setPool] = useState<string | null>(null);
  // Staff controls: the gesture asks for the PIN, the server's yes opens them for this session.
  const [staff, setStaff] = useState(false);
  const [pinAsked, setPinAsked] = useState(false);
  const closeStaff = () => {
    setStaff(false);
    setVip('');
    setVipNote(null);
  };

  // The private key's answer carries the printing controls (PRIVATE_EVENT_FIELDS).
  const printing: PrintingFields | null = printingFieldsOf(event);
  const pools = useMemo(
    () =>
      kioskPrinterPools(
        location.search,
        printing?.printer_pool_name_list,
        printing?.is_printer_pool_enabled === 1,
      ),
    [location.search, printing],
  );
  const printFromAllAlbums = Number(
    new URLSearchParams(location.search).get('printFromAllAlbums') ??
      printing?.print_from_all_albums ??
      0,
  );
  const chosenPool = pool !== null && pools.includes(pool) ? pool : null;
  const printListShown =
    kioskKey !== null &&
    attendeeUid !== null &&
    printing?.is_photo_printer_active === 1 &&
    showPrintImageList({
      kioskMode: true,
      ownerAlbum: false,
      printFromAllAlbums,
      // A pool chosen in the dropdown is the one this guest prints on.
      printerPoolCount: chosenPool ? 1 : pools.length,
    });

  const context = useMemo(
    (): KioskSession => ({
      outbox,
      kioskKey,
      attendeeUid,
      deleteAllowed: staff && kioskDeleteAllowedHere(location.search),
      staff,
      vipToken,
      printPool: chosenPool ?? (pools.length === 1 ? pools[0]! : null),
      printListShown,
      maxPrintPhotos: Math.min(
        PRINT_PHOTOS_MAX,
        printing?.max_print_photos_count || PRINT_PHOTOS_MAX,
      ),
      printTexts: {
        header: printing?.opts?.printHeaderMessage?.trim() ?? '',
        footer: printing?.opts?.printFooterMessage?.trim() ?? '',
        confirm: printing?.opts?.printConfirmMessage?.trim() ?? '',
        confirmation: printing?.opts?.printingConfirmationText?.trim() ?? '',
      },
      qrAtCheckout: printing?.opts?.qrAtKioskCheckout === 1,
    }),
    [
      outbox,
      kioskKey,
      attendeeUid,
      location.search,
      staff,
      vipToken,
      chosenPool,
      pools,
      printListShown,
      printing,
    ],
  );

  // One check at a time (a second Enter while the first is asked does nothing).
  const [vipChecking, setVipChecking] = useState(false);
  const submitVip = (token: string) => {
    if (!albumKey || vipChecking) return;
    setVipNote(null);
    setVipChecking(true);
    checkVipToken(albumKey, token)
      .then(
        () => {
          setVipToken(token);
          setVip('');
          setVipNote({ ok: true, text: t('albums.kiosk.vipAccepted') });
        },
        (error: unknown) => setVipNote({ ok: false, text: errorText(errorKeyOf(error)) }),
      )
      .finally(() => setVipChecking(false));
  };

  const offline = session.offline || outboxState.waiting;
  if (session.ended) {
    return (
      <div className="kiosk-screen kiosk-screen--ended" data-kiosk-screen="ended">
        <p className="kiosk-times-up" role="status">
          {t('albums.kiosk.timesUp')}
        </p>
        <p className="albums-message">{t('albums.kiosk.ending')}</p>
        {offline && <OfflineBanner pending={outboxState.pending} />}
      </div>
    );
  }
  const camera = kioskKey !== null && attendeeUid !== null;
  // "Still there?" near the end of an idle session: a tap anywhere keeps it, the count shows.
  const stillThere =
    session.remainingMs > 0 && session.remainingMs <= kioskStillTherePromptMs(timeoutMs);
  const staffPanel = staff && (
    <section className="kiosk-staff" aria-label={t('albums.kiosk.staff.title')} data-kiosk-staff>
      <p className="kiosk-staff-title">{t('albums.kiosk.staff.title')}</p>
      {pools.length > 1 && (
        <label className="kiosk-field" htmlFor={poolId}>
          {t('albums.kiosk.printPool')}
          <select
            id={poolId}
            value={chosenPool ?? ''}
            onChange={(event) => setPool(event.target.value || null)}
          >
            <PrinterPoolOptions pools={pools} />
          </select>
        </label>
      )}
      {albumKey && (
        <form
          className="kiosk-field"
          onSubmit={(event) => {
            event.preventDefault();
            if (vip.trim()) submitVip(vip.trim());
          }}
        >
          <label htmlFor={vipId}>{t('albums.kiosk.vipToken')}</label>
          <input
            id={vipId}
            type="text"
            inputMode="text"
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="off"
            spellCheck={false}
            enterKeyHint="go"
            value={vip}
            aria-describedby={vipNote ? `${vipId}-note` : undefined}
            onChange={(event) => setVip(event.target.value)}
          />
          {vipNote && (
            <span
              id={`${vipId}-note`}
              className={`kiosk-field-note${vipNote.ok ? '' : ' kiosk-field-note--error'}`}
              role={vipNote.ok ? 'status' : 'alert'}
            >
              {vipNote.text}
            </span>
          )}
        </form>
      )}
      {kioskKey !== null && attendeeUid !== null && (
        <KioskCardGroup kioskKey={kioskKey} attendeeUid={attendeeUid} />
      )}
      <button type="button" className="kiosk-staff-close" onClick={closeStaff}>
        {t('albums.kiosk.staff.close')}
      </button>
    </section>
  );
  return (
    <KioskContext value={context}>
      <div
        className="kiosk-screen"
        style={accent}
        data-kiosk-screen="active"
        data-user-active={session.active ? 'true' : 'false'}
        data-kiosk-staff-open={staff ? 'true' : undefined}
      >
        {kioskKey !== null && !staff && <StaffCorner onGesture={() => setPinAsked(true)} />}
        {offline && <OfflineBanner pending={outboxState.pending} />}
        <div className="kiosk-bar">
          {/* The album's cover shows the logo; the face and camera panels have none of their own. */}
          {event?.logo_full_path && panel !== 'album' && (
            <img
              className="kiosk-logo"
              src={event.logo_full_path}
              alt={t('albums.cover.logoAlt', { title: event.full_name })}
            />
          )}
          <div className="kiosk-actions" data-kiosk-actions>
            {faceLookupOff && panel !== 'camera' ? null : panel === 'album' ? (
              <button
                type="button"
                className="kiosk-action fb-button--primary"
                onClick={toggleFace}
              >
                {t('albums.kiosk.lookUpByFace')}
              </button>
            ) : (
              <button
                type="button"
                className="kiosk-action fb-button--primary"
                onClick={toggleFace}
              >
                {t('albums.kiosk.backToAlbum')}
              </button>
            )}
          </div>
          {camera && panel !== 'camera' && (
            <button type="button" className="kiosk-camera-open" onClick={openCamera}>
              {t('albums.kiosk.camera.open')}
            </button>
          )}
          <span
            className={`kiosk-countdown${stillThere ? ' kiosk-countdown--ending' : ''}`}
            aria-live="off"
            data-kiosk-countdown
          >
            {session.remainingMs > 0
              ? t('albums.kiosk.timeLeft', { time: countdownText(session.remainingMs) })
              : t('albums.kiosk.timesUp')}
          </span>
          <button type="button" className="kiosk-done" onClick={endNow}>
            {t('albums.kiosk.done')}
          </button>
        </div>
        {staffPanel}
        {checkout && <div className="kiosk-checkout-slot">{checkout}</div>}
        {panel === 'face' && !faceLookupOff ? (
          <div className="kiosk-face-slot" data-mount="face-lookup">
            {faceLookup ?? <p className="albums-message">{t('albums.kiosk.faceLookupSoon')}</p>}
          </div>
        ) : panel === 'camera' && camera ? (
          <KioskPhotoBooth />
        ) : (
          children
        )}
        {pinAsked && kioskKey !== null && (
          <StaffPinDialog
            kioskKey={kioskKey}
            onCancel={() => setPinAsked(false)}
            onOpened={() => {
              setPinAsked(false);
              setStaff(true);
            }}
          />
        )}
        {stillThere && !pinAsked && (
          <StillThere
            remainingMs={session.remainingMs}
            onStay={session.stayActive}
            onDone={endNow}
          />
        )}
      </div>
    </KioskContext>
  );
}

/**
 * "Still there?" (the last seconds of an idle session): the count large, "I'm still here" starts
 * the session's count again, "I'm done" ends it now. Any tap on the screen also keeps it.
 */
function StillThere({
  remainingMs,
  onStay,
  onDone,
}: {
  remainingMs: number;
  onStay: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const seconds = Math.ceil(remainingMs / 1000);
  return (
    <KioskConfirm
      title={t('albums.kiosk.stillThere.title')}
      className="kiosk-still-there"
      titleClassName="kiosk-still-there-title"
      backdropClassName="kiosk-still-there-backdrop"
      data-kiosk-still-there
    >
      <p className="kiosk-still-there-count" aria-hidden="true">
        {seconds}
      </p>
      <p>{t('albums.kiosk.stillThere.text', { count: seconds })}</p>
      <div className="kiosk-confirm-actions">
        <button type="button" onClick={onDone}>
          {t('albums.kiosk.done')}
        </button>
        <button type="button" className="fb-button--primary" autoFocus onClick={onStay}>
          {t('albums.kiosk.stillThere.stay')}
        </button>
      </div>
    </KioskConfirm>
  );
}

function OfflineBanner({ pending }: { pending: number }) {
  const { t } = useTranslation();
  return (
    <div className="kiosk-offline" role="status" data-kiosk-offline>
      {t('albums.kiosk.offline')}
      {pending > 0 && (
        <span className="kiosk-offline-pending" data-kiosk-pending={pending}>
          {' '}
          {t('albums.kiosk.pending', { count: pending })}
        </span>
      )}
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
 * The kiosk photo delete confirmation (§4): Keep or Delete. Nothing is deleted on Keep; Delete is
 * throttled (§9), so a double tap deletes once.
 */
export function KioskDeleteConfirm({
  photoName,
  onKeep,
  onDelete,
}: {
  photoName: string;
  onKeep: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const confirm = useThrottled(onDelete);
  return (
    <KioskQuestion
      title={t('albums.kiosk.deleteConfirm')}
      no={{ label: t('albums.kiosk.keep'), onClick: onKeep }}
      yes={{ label: t('albums.kiosk.delete'), onClick: confirm, className: 'kiosk-confirm-delete' }}
    >
      <p className="kiosk-confirm-name">{photoName}</p>
    </KioskQuestion>
  );
}
