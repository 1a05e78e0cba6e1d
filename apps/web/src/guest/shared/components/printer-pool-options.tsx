import { useTranslation } from 'react-i18next';

/**
 * The choices of a print pool select (albums §4): none yet, then each pool of the event. The same
 * on the kiosk's staff panel (kiosk-screen.tsx) and the album page's print list
 * (album-print-panel.tsx).
 */
export function PrinterPoolOptions({ pools }: { pools: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <>
      <option value="">{t('albums.kiosk.noneSelected')}</option>
      {pools.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </>
  );
}
