/**
 * A reason the server must not start (a configuration or data-folder problem the operator fixes).
 * The entry point prints its message as "Flashbulb cannot start: …" and exits, without a stack.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
