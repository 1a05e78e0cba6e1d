import { useEffect, useState } from 'react';
import { Skeleton } from '@mantine/core';
import QRCode from 'qrcode';

/** Spec §9: QR code size 240, error correction H. */
export const QR_SIZE = 240;

/**
 * Renders `value` as a QR code. SVG in an <img data:…> rather than a canvas: it is crisp at any zoom,
 * allowed by the CSP (`img-src data:`) and needs no canvas (which jsdom lacks in component tests).
 */
export function QrCodeImage({
  value,
  alt,
  testId,
}: {
  value: string;
  alt: string;
  testId?: string;
}) {
  const [src, setSrc] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    QRCode.toString(value, { type: 'svg', errorCorrectionLevel: 'H', width: QR_SIZE, margin: 4 })
      .then((svg) => {
        if (current) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        // Cannot happen for an otpauth URI (far below QR capacity); the key is still shown as text.
      });
    return () => {
      current = false;
    };
  }, [value]);

  if (!src) return <Skeleton width={QR_SIZE} height={QR_SIZE} />;
  return (
    <img
      src={src}
      alt={alt}
      width={QR_SIZE}
      height={QR_SIZE}
      data-testid={testId}
      style={{ display: 'block' }}
    />
  );
}
