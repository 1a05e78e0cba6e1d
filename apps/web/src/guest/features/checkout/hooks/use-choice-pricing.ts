import { usePricingButtons } from '../../../shared/api/album-payments.ts';

/** Buying the whole album, or photos the guest taps in the grid (the page holds the choice). */
export interface PhotoChoice {
  choosing: boolean;
  chosen: readonly string[];
  setChoosing: (choosing: boolean) => void;
  /** Starts choosing with these photos chosen (e.g. the ones "Find me" found). */
  choose?: (uids: readonly string[]) => void;
}

/**
 * The pricing buttons a checkout shows: for the whole album, or, while the guest chooses, for
 * the photos chosen so far (none chosen yet: the album's prices until the first tap). With the
 * kiosk's key, the server answers the kiosk's ways to pay.
 */
export const useChoicePricing = (
  attendeeUid: string,
  choice: PhotoChoice | null | undefined,
  kioskKey: string | null = null,
) => {
  const choosing = choice?.choosing ?? false;
  const chosenCount = choice?.chosen.length ?? 0;
  const buttons = usePricingButtons(
    attendeeUid,
    true,
    choosing ? (chosenCount > 0 ? chosenCount : null) : null,
    kioskKey,
  );
  return { choosing, chosenCount, buttons };
};
