import { useTranslation } from 'react-i18next';
import type { PhotoChoice } from '../hooks/use-choice-pricing.ts';
import type { PricedButton } from './priced-buttons.tsx';

/**
 * What a paid album's buttons include, above them: the event's text about digital copies (where
 * a button sells them), and that prints need the digital copies (where a button requires them).
 */
export function PricingNotes({
  buttons,
  digitalMessage,
}: {
  buttons: readonly PricedButton[];
  digitalMessage: string | null | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      {digitalMessage && buttons.some((button) => button.digitals) && (
        <p className="albums-paid-digital">{digitalMessage}</p>
      )}
      {buttons.some((button) => button.requires_digital) && (
        <p className="albums-paid-combo">{t('albums.paid.comboRequired')}</p>
      )}
    </>
  );
}

/**
 * Buy the whole album (`wholeLabel`, with its count) or the photos the guest taps; while choosing,
 * how many are chosen (or how to choose).
 */
export function PhotoChoiceScope({
  choice,
  wholeLabel,
}: {
  choice: PhotoChoice;
  wholeLabel: string;
}) {
  const { t } = useTranslation();
  const chosenCount = choice.chosen.length;
  return (
    <>
      <div className="albums-paid-scope" role="group" aria-label={t('albums.paid.scope')}>
        <button
          type="button"
          aria-pressed={!choice.choosing}
          onClick={() => choice.setChoosing(false)}
        >
          {wholeLabel}
        </button>
        <button
          type="button"
          aria-pressed={choice.choosing}
          onClick={() => choice.setChoosing(true)}
        >
          {t('albums.paid.choosePhotos')}
        </button>
      </div>
      {choice.choosing && (
        <p className="albums-note" role="status">
          {chosenCount === 0
            ? t('albums.paid.chooseHint')
            : t('albums.paid.chosen', { count: chosenCount })}
        </p>
      )}
    </>
  );
}
