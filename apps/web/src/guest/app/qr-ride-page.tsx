import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cardCodeFromScan, type GuestPhoto as Photo } from '@flashbulb/shared';
import { errorKeyOf } from '../../lib/api-client.ts';
import { useErrorText } from '../../lib/error-text.ts';
import type { AlbumKey } from '../shared/api/guest-album-photos.ts';
import { attachPhotosByCardScan, type QrScanResult } from '../shared/api/attendee-album.ts';
import { AlbumLinkQr } from '../shared/components/album-link-qr.tsx';
import { AlbumView, type AlbumSelection } from '../features/album/components/album-view.tsx';

/** The success panel stays this long, then the ride screen is ready for the next visitor. */
export const QR_RIDE_RESET_MS = 15_000;

type ScanState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'failed'; text: string }
  | { kind: 'added'; result: QrScanResult };

/**
 * QR ride kiosk (evSB3): the ride's newest photos arrive live; a visitor picks theirs, scans their
 * card (the scanner types the card's text and Enter, albums spec §2.3) and the photos join that
 * album. The success panel shows the album link and its QR code, then the screen resets.
 */
export function QrRidePage({ privateKey }: { privateKey: string | null }) {
  const { t } = useTranslation();
  if (!privateKey) {
    return (
      <p className="albums-message" role="alert">
        {t('albums.qrRide.noKey')}
      </p>
    );
  }
  return <QrRide privateKey={privateKey} />;
}

function QrRide({ privateKey }: { privateKey: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const inputId = useId();
  const scanRef = useRef<HTMLInputElement>(null);
  const panelRef = useRef<HTMLHeadingElement>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [scan, setScan] = useState('');
  const [state, setState] = useState<ScanState>({ kind: 'idle' });
  const albumKey = useMemo(
    (): AlbumKey => ({ keyType: 'private', keyValue: privateKey }),
    [privateKey],
  );

  const toggle = useCallback((photo: Photo) => {
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(photo.uid)) next.add(photo.uid);
      return next;
    });
  }, []);
  const selection = useMemo(
    (): AlbumSelection => ({ isSelected: (photo) => selected.has(photo.uid), toggle }),
    [selected, toggle],
  );

  const reset = useCallback(() => {
    setSelected(new Set());
    setScan('');
    setState({ kind: 'idle' });
  }, []);

  const added = state.kind === 'added';
  useEffect(() => {
    if (!added) return undefined;
    panelRef.current?.focus();
    const timer = window.setTimeout(reset, QR_RIDE_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [added, reset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (state.kind === 'sending') return;
    const text = scan.trim();
    // The field is cleared after every read, so the next scan never lands on the last one.
    setScan('');
    if (selected.size === 0) {
      setState({ kind: 'failed', text: t('albums.qrRide.selectFirst') });
      return;
    }
    if (cardCodeFromScan(text) === null) {
      setState({ kind: 'failed', text: t('albums.qrRide.invalidCard') });
      return;
    }
    setState({ kind: 'sending' });
    attachPhotosByCardScan(privateKey, text, [...selected]).then(
      (result) => {
        setSelected(new Set());
        setState({ kind: 'added', result });
      },
      (error: unknown) => {
        const key = errorKeyOf(error);
        setState({
          kind: 'failed',
          text:
            key === 'invalid_attendee_id'
              ? t('albums.qrRide.invalidCard')
              : `${t('albums.qrRide.failed')} ${errorText(key)}`,
        });
      },
    );
  };

  const doneAndRefocus = () => {
    reset();
    // The form comes back on the next render; the scanner's focus goes to its field.
    window.setTimeout(() => scanRef.current?.focus(), 0);
  };

  return (
    <AlbumView
      albumKey={albumKey}
      mode="stream"
      kiosk
      // The ride's own screen, not the kiosk stream: shown whatever kioskStreamEnabled says.
      kioskStreamScreen={false}
      canDownload={false}
      selection={selection}
    >
      {state.kind === 'added' ? (
        <section className="albums-success" aria-live="polite">
          <h2 ref={panelRef} tabIndex={-1}>
            {t('albums.qrRide.success', {
              count: state.result.attached_count,
              id: state.result.display_uid,
            })}
          </h2>
          <a href={state.result.album_url}>{t('albums.qrRide.albumLink')}</a>
          <AlbumLinkQr url={state.result.album_url} alt={t('albums.qrRide.qrAlt')} />
          <p>{t('albums.qrRide.resetHint')}</p>
          <button type="button" onClick={doneAndRefocus}>
            {t('albums.qrRide.done')}
          </button>
        </section>
      ) : (
        <form className="albums-scan" onSubmit={submit}>
          <p>{t('albums.qrRide.selectHint')}</p>
          <p className="albums-bar" role="status">
            {t('albums.qrRide.selectedCount', { count: selected.size })}
          </p>
          <label htmlFor={inputId}>{t('albums.qrRide.scanLabel')}</label>
          <input
            ref={scanRef}
            id={inputId}
            type="password"
            autoComplete="off"
            value={scan}
            onChange={(event) => setScan(event.target.value)}
          />
          <button type="submit" disabled={state.kind === 'sending'}>
            {t('albums.qrRide.scanSubmit')}
          </button>
          {selected.size > 0 && (
            <button type="button" onClick={() => setSelected(new Set())}>
              {t('albums.qrRide.clearSelection')}
            </button>
          )}
          {state.kind === 'failed' && (
            <p className="albums-note" role="alert">
              {state.text}
            </p>
          )}
        </form>
      )}
    </AlbumView>
  );
}
