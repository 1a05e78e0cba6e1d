import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { canUseShareSheet } from '../utils/share-download.ts';
import type { ViewerOptions, ViewerPanel } from './viewer-options.ts';

/**
 * The viewer's share actions: copy the photo's link or the event's share text, open Facebook's
 * share dialog, or the system share sheet (link and text) where there is one (else the share menu). Outcomes show as the viewer's notice.
 */
export function useShareActions({
  options,
  setNotice,
  togglePanel,
}: {
  options: ViewerOptions;
  setNotice: (text: string) => void;
  togglePanel: (kind: ViewerPanel) => void;
}) {
  const { t } = useTranslation();

  const copyLink = async (target: Photo) => {
    try {
      await navigator.clipboard.writeText(await options.shareUrl(target));
      setNotice(t('albums.viewer.linkCopied'));
    } catch {
      setNotice(t('albums.viewer.copyFailed'));
    }
  };

  /** Copies the event's share text (plain text: the operator's words with the links filled). */
  const copyText = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setNotice(t('albums.viewer.textCopied'));
    } catch {
      setNotice(t('albums.viewer.copyFailed'));
    }
  };

  const shareOnFacebook = async (target: Photo) => {
    // Open the window during the click (popup blockers), then point it at the share dialog.
    const popup = window.open('', '_blank', 'width=640,height=480');
    if (popup) popup.opener = null;
    const url = `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(await options.shareUrl(target))}`;
    if (popup) popup.location.href = url;
    else window.open(url, '_blank', 'noopener,noreferrer');
    options.onFacebookShare?.(target);
  };

  /** The system share sheet where there is one; else the menu (copy link, Facebook). */
  const share = async (target: Photo) => {
    if (!canUseShareSheet()) {
      togglePanel('share');
      return;
    }
    try {
      const [url, text] = await Promise.all([
        options.shareUrl(target),
        options.shareText?.(target) ?? Promise.resolve(''),
      ]);
      await navigator.share({ url, title: options.title, ...(text ? { text } : {}) });
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) togglePanel('share');
    }
  };

  return { copyLink, copyText, shareOnFacebook, share };
}

export type ShareActions = ReturnType<typeof useShareActions>;
