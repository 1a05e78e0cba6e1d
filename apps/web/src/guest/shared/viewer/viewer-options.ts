import type { GuestPhoto as Photo } from '@flashbulb/shared';

/** What the viewer may offer for a photo; decided by the page from its key type. */
export interface ViewerOptions {
  readonly canDownload: boolean;
  /** A free event's public album may save the picture it shows (not the original). */
  readonly canSavePreview?: boolean;
  /**
   * In the mobile app's web view (`app=ios|android`) the `download` attribute is ignored: the file
   * opens in the same window instead, where the app's own viewer saves it.
   */
  readonly inApp?: boolean;
  /** A shared kiosk screen: no share or copy-link actions. */
  readonly kiosk?: boolean;
  /** The operator shows file names to guests (`opts.guestShowFileNames`). */
  readonly showFileNames?: boolean;
  /** The album's title (share sheet title, neutral download names). */
  readonly title?: string;
  /** The event's logo in the top bar, linked to its `logo_link` (none on kiosk screens). */
  readonly logo?: { readonly src: string; readonly link: string | null } | null;
  /** The event's watermark image, laid over photos that have no watermarked derivative. */
  readonly watermarkOverlay: string | null;
  /** The link to share for a photo (share page when the server makes one, else the preview). */
  readonly shareUrl: (photo: Photo) => Promise<string>;
  /**
   * The event's share text for a photo (its sharing template, filled by the server; plain text):
   * shown in the share menu, copied, and given to the system share sheet. None: no text.
   */
  readonly shareText?: (photo: Photo) => Promise<string>;
  /** Called after the Facebook dialog opens (activity tracking, when the server has it). */
  readonly onFacebookShare?: (photo: Photo) => void;
  /** Called when the guest downloads or saves the photo (counted for the event's insight). */
  readonly onDownload?: (photo: Photo) => void;
  /** Send this photo as a mini-album link (pages that can send). */
  readonly onSend?: (photo: Photo) => void;
  /** The guest's favourites (a heart in the top bar), where the page keeps them. */
  readonly favourites?: {
    readonly isFavourite: (photo: Photo) => boolean;
    readonly toggle: (photo: Photo) => void;
  };
}

/** The info or share panel, open for one photo. */
export type ViewerPanel = 'info' | 'share';
