import type { ErrorKey } from '@flashbulb/shared';

/** A failure the client should see: a catalogue key, optionally tied to a field. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly field?: string,
  ) {
    super(key);
    this.name = 'AppError';
  }
}
