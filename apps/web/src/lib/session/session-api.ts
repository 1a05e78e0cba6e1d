import { endpoints, type AuthenticationResult } from '@flashbulb/shared';
import { callApi, errorKeyOf, isNoReply, refreshAccessToken } from '../api-client.ts';
import { markSignedIn, markSignedOut, setAccessToken } from '../session-store.ts';

/** End the session on the server (revokes tokens, clears the cookie) and here. Never fails. */
export const signOut = async (notice: string | null = null): Promise<void> => {
  try {
    await callApi(endpoints.signOut, {});
  } catch {
    // Signing out locally is what matters to the user; the tokens expire on their own.
  }
  markSignedOut(notice);
};

/**
 * Spec §4 step 5: after the tokens, my-info is retrieved; any failure signs the user out. A
 * my-info that got no answer (`isNoReply`: offline, or a page the user is already leaving) signs
 * out only here: ending the session on the server would sign out the page being opened.
 */
const loadUser = async (): Promise<void> => {
  try {
    const user = await callApi(endpoints.myInfo, {});
    markSignedIn(user);
  } catch (error) {
    if (isNoReply(error)) markSignedOut();
    else await signOut(errorKeyOf(error));
  }
};

export const completeSignIn = async (tokens: AuthenticationResult): Promise<void> => {
  setAccessToken(tokens.access_token);
  await loadUser();
};

let restoring: Promise<void> | null = null;

/** Set by the server next to the httpOnly refresh cookie, with its lifetime (not a secret). */
const SESSION_HINT_COOKIE = 'flashbulb_session';

/** Whether this browser holds a session the refresh cookie may restore. */
export const hasSessionHint = (): boolean =>
  document.cookie.split(';').some((part) => part.trim().startsWith(`${SESSION_HINT_COOKIE}=`));

/**
 * On app load, trade the refresh cookie for tokens (only when the server's session hint cookie
 * says there is one). Runs once per page load (React StrictMode
 * mounts effects twice, and a second refresh with the same single-use cookie would fail).
 */
export const restoreSession = (): Promise<void> => {
  restoring ??= (async () => {
    // Without the hint there is no session: no refresh call, so no 401 in the browser's console.
    // A refresh without an answer leaves the cookie for the next load to try again.
    const token = hasSessionHint() ? await refreshAccessToken().catch(() => null) : null;
    if (token) await loadUser();
    else markSignedOut();
  })();
  return restoring;
};

export const resetRestoreForTests = (): void => {
  restoring = null;
};
