import { useEffect, useState } from 'react';

/** Kiosk screens are read from a step away: big enough for any phone camera. */
const QR_PIXELS = 220;

/**
 * The album link as a QR code (error correction H, albums spec §9), drawn as SVG in an image: no
 * canvas, nothing injected into the page; until it is ready the link beside it is enough.
 */
export function AlbumLinkQr({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    // Loaded when a QR is shown: the album's first load carries no QR encoder.
    import('qrcode')
      .then(({ default: QRCode }) =>
        QRCode.toString(url, {
          type: 'svg',
          errorCorrectionLevel: 'H',
          margin: 2,
          width: QR_PIXELS,
        }),
      )
      .then((svg) => {
        if (current) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (current) setSrc(null);
      });
    return () => {
      current = false;
    };
  }, [url]);
  if (!src) return null;
  return <img className="albums-qr" src={src} alt={alt} width={QR_PIXELS} height={QR_PIXELS} />;
}
