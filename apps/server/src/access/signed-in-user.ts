import type { Role } from '@flashbulb/shared';

/** Who is calling: resolved once per request from the Authorization header. */
export interface SignedInUser {
  userId: number;
  email: string;
  role: Role;
  organisationId: number | null;
  /** The sign-in session behind an access token; null when the caller used an API key. */
  sessionId: string | null;
}
