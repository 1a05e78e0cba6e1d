/**
 * How long guest pages wait between two questions to the server while something they started is
 * pending: a QR or card payment, a Square reader sale, prints bought at the kiosk. Two seconds
 * keep a paying guest's wait short and a kiosk's load on the server small.
 *
 * One object, read at each tick's set-up, so the web tests shorten every wait at once
 * (src/test/setup.ts): a test waiting for the second answer then waits milliseconds of real
 * time instead of seconds, while the pages keep the same order of calls.
 */
export const pollTiming = {
  /** QR and card checkouts: `payment/check-qr-status`. */
  paymentMs: 2000,
  /** A sale on the Square reader at the kiosk. */
  squareMs: 2000,
  /** Prints bought at the kiosk. */
  printsMs: 2000,
  /** A sale on the venue's payment terminal at the kiosk. */
  terminalMs: 2000,
  /**
   * A zip a job builds (a large album, mailed): the first wait before asking whether it is ready;
   * each later wait doubles, up to `zipReadyMaxMs` (a big album takes minutes).
   */
  zipReadyMs: 3000,
  zipReadyMaxMs: 30_000,
};
