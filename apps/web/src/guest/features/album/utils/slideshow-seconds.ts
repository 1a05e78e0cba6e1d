/** Event opts defaults (shared event settings): 3 s while new photos wait, 8 s otherwise. */
export const DEFAULT_SLIDESHOW_SECONDS = { min: 3, max: 8 };
