import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../lib/api-client.ts';
import type { AlbumKey } from '../shared/api/guest-album-photos.ts';
import { useAttendeeAlbum } from '../shared/api/attendee-album.ts';
import { usePhotoChoice } from './use-photo-choice.ts';
import { AlbumLinkError } from '../features/album/components/album-link-error.tsx';
import { AlbumView, type AlbumPresentation } from '../features/album/components/album-view.tsx';
import { useKioskAlbumTools } from '../features/kiosk/components/kiosk-album-tools.tsx';
import { useKiosk } from '../shared/kiosk/kiosk-context.tsx';
import { FaceLookup } from '../features/faces/components/face-lookup.tsx';
import { KioskCheckout } from '../features/checkout/components/kiosk-checkout.tsx';
import { PaidAlbumPanel } from '../features/checkout/components/paid-album-panel.tsx';
import { SendAlbumLinkForm } from '../features/kiosk/components/send-album-link-form.tsx';

/** `attOrgId` carries the organisation as text; anything but a positive whole number never matches. */
const organisationNumber = (raw: string): number | null =>
  /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;

/**
 * An attendee's own album (albums spec §2.1): the `attId` link, the kiosk pages evSB2 and evSB4
 * (kiosk layout, plus the e-mail form) and the older `attOrgId` page. The attendee is read first —
 * locked, expired and unknown albums show the reason and no photos — then the photos, live.
 */
export function AttendeeAlbumPage({
  attendeeUid,
  organisationId = null,
  kiosk,
  sendLink = false,
  kioskKey = null,
  fromKiosk = false,
}: {
  attendeeUid: string;
  /** `attOrgId` links: the attendee must belong to this organisation. */
  organisationId?: string | null;
  kiosk: boolean;
  /** Kiosk attendee pages offer to send the album link by e-mail. */
  sendLink?: boolean;
  /** The kiosk's private key from the link; without it the e-mail form is not offered. */
  kioskKey?: string | null;
  fromKiosk?: boolean;
}) {
  const { t } = useTranslation();
  const orgNumber = organisationId === null ? null : organisationNumber(organisationId);
  const badOrganisation = organisationId !== null && orgNumber === null;
  const attendee = useAttendeeAlbum(attendeeUid, orgNumber, !badOrganisation);
  const vipToken = useKiosk()?.vipToken ?? null;
  const albumKey = useMemo(
    (): AlbumKey => ({
      keyType: 'attendee',
      keyValue: attendeeUid,
      ...(vipToken ? { vipToken } : {}),
    }),
    [attendeeUid, vipToken],
  );
  // A photo deleted at the kiosk: the album is read again from the server.
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => {
    queryClient.removeQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
    setGeneration((n) => n + 1);
  }, [queryClient, attendeeUid]);
  const kioskTools = useKioskAlbumTools(reload);

  // Photos chosen for a per-photo purchase (paid albums), on the phone and at the kiosk alike.
  const { choice, selection } = usePhotoChoice();

  const data = attendee.data;
  const presentation = useMemo((): AlbumPresentation | undefined => {
    if (!data) return undefined;
    const event = data.events[0];
    // A kiosk's screen is seen by the people around it: the event's name, never the card's id.
    const title = kiosk
      ? (event?.full_name ?? t('albums.attendee.kioskTitle'))
      : event
        ? t('albums.attendee.title', { event: event.full_name, id: data.display_uid })
        : data.display_uid;
    return {
      title,
      logo: event?.logo_full_path ?? null,
      accent: event?.accent_color ?? '',
      emptyText: event?.empty_album_text ?? '',
      clock: event
        ? { time_zone: event.time_zone ?? '', date_utc_diff_hours: event.date_utc_diff_hours ?? 0 }
        : null,
    };
  }, [data, t, kiosk]);

  // Seen locked on this screen, then unlocked (a payment the server confirmed): the checkout goes
  // away with the lock, so the guest is told it is paid.
  const [seenLocked, setSeenLocked] = useState(false);
  const locked = data !== undefined && data.unlocked !== 1;
  if (locked && !seenLocked) setSeenLocked(true);
  const justPaid = kiosk && seenLocked && data?.unlocked === 1;

  // A failed refresh (a kiosk gone offline) keeps the album it has on screen.
  if (badOrganisation || (attendee.isError && !attendee.data)) {
    const key = badOrganisation ? 'invalid_attendee_id' : errorKeyOf(attendee.error);
    return <AlbumLinkError errorKey={key} />;
  }
  if (!data || !presentation) {
    return (
      <p className="albums-message" role="status">
        {t('albums.loading')}
      </p>
    );
  }
  return (
    <AlbumView
      key={generation}
      albumKey={albumKey}
      mode="grid"
      live
      kiosk={kiosk}
      tileActions={kioskTools.tileActions}
      printChosen={kioskTools.printPhotos}
      presentation={presentation}
      // The server opens originals (the whole album, or photos bought by tag or one by one).
      canDownload={data.unlocked === 1 || !kiosk}
      // "Download all" only where every original opens (a locked album's zip would be refused).
      canDownloadAll={data.unlocked === 1 && !kiosk}
      selection={data.unlocked !== 1 ? selection : undefined}
      sendable={!(choice.choosing && data.unlocked !== 1)}
    >
      {data.unlocked !== 1 &&
        (kiosk ? (
          <KioskCheckout attendeeUid={attendeeUid} kioskKey={kioskKey} choice={choice} />
        ) : (
          <PaidAlbumPanel attendeeUid={attendeeUid} choice={choice} cardCheckout />
        ))}
      {justPaid && (
        <p className="albums-note albums-paid-note" role="status">
          {t('albums.attendee.paidNow')}
        </p>
      )}
      {/* Bought on this screen just now: the event's upsell, when it offers one. */}
      {seenLocked && data.unlocked === 1 && (
        <PaidAlbumPanel attendeeUid={attendeeUid} kiosk={kiosk} cardCheckout={!kiosk} upsell />
      )}
      {fromKiosk && <p className="albums-note">{t('albums.attendee.fromKiosk')}</p>}
      {kioskTools.panels}
      {/* On a kiosk the kiosk screen offers it; on a phone, "Find me" with a selfie. */}
      {!kiosk && (
        <FaceLookup
          albumKey={{ keyType: 'attendee', keyValue: attendeeUid }}
          onChoose={data.unlocked !== 1 ? choice.choose : undefined}
        />
      )}
      {sendLink && kioskKey && <SendAlbumLinkForm attendeeUid={attendeeUid} kioskKey={kioskKey} />}
    </AlbumView>
  );
}
