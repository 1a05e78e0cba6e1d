import { useTranslation } from 'react-i18next';
import { formatMoney } from '@flashbulb/shared';

/** A pricing button as the album pages show it (the server's priced button). */
export interface PricedButton {
  readonly index: number;
  readonly button_text: string;
  readonly amount: number | null;
  readonly digitals: boolean;
  readonly prints: boolean;
  readonly requires_digital: boolean;
}

/**
 * The event's pricing buttons of an album's checkout, each with its price unless the event hides
 * it or no photo is chosen yet; a tap picks the button (its index and amount).
 */
export function PricedButtons({
  buttons,
  currency,
  noChosenPhotos,
  disabled,
  primary = false,
  printsOverLimit = false,
  onChoose,
}: {
  buttons: readonly PricedButton[];
  currency: string;
  /** Choosing photos and none chosen: prices are not shown and nothing can be bought. */
  noChosenPhotos: boolean;
  /** Whether the page holds the buttons back (a start under way, the ways to pay not known). */
  disabled: boolean;
  primary?: boolean;
  /** More photos chosen than one purchase may print: the buttons selling prints wait (the page
   * says why). */
  printsOverLimit?: boolean;
  onChoose: (index: number, amount: number | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="albums-paid-buttons">
      {buttons.map((button) => (
        <button
          key={button.index}
          type="button"
          className={primary ? 'fb-button--primary' : undefined}
          disabled={
            disabled ||
            noChosenPhotos ||
            // Combo required: prints alone are not sold before the digital photos.
            button.requires_digital ||
            (button.prints && printsOverLimit)
          }
          onClick={() => onChoose(button.index, button.amount)}
        >
          {button.amount === null || noChosenPhotos
            ? button.button_text
            : t('albums.paid.button', {
                text: button.button_text,
                amount: formatMoney(button.amount, currency),
              })}
        </button>
      ))}
    </div>
  );
}
