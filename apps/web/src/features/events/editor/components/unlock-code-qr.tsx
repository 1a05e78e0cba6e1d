import { useEffect, useState } from 'react';
import { Anchor, Skeleton, Stack } from '@mantine/core';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { EVENT_LIMITS } from '@flashbulb/shared';

const SHOWN_SIZE = 72;

/**
 * An employee's unlock code as a QR code (albums spec §9: 500 px, error correction H), shown small
 * with a link to the full-size image for printing on a badge.
 */
export function UnlockCodeQr({ code, fileName }: { code: string; fileName: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toString(code, {
      type: 'svg',
      errorCorrectionLevel: 'H',
      width: EVENT_LIMITS.employeeQrSize,
      margin: 4,
    })
      .then((svg) => {
        if (current) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        // Four characters are far below QR capacity; the code is still shown as text.
      });
    return () => {
      current = false;
    };
  }, [code]);
  if (!src) return <Skeleton width={SHOWN_SIZE} height={SHOWN_SIZE} />;
  return (
    <Stack gap={2} align="center">
      <img
        src={src}
        alt={t('events.paid.qrAlt', { code })}
        width={SHOWN_SIZE}
        height={SHOWN_SIZE}
        data-testid="unlock-code-qr"
      />
      <Anchor href={src} download={`${fileName}.svg`} size="xs">
        {t('events.paid.downloadQr')}
      </Anchor>
    </Stack>
  );
}
