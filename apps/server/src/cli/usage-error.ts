/** A command given wrongly: the message and the usage are printed, exit code 2. */
export class UsageError extends Error {}
