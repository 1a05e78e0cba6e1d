import type { MyInfo, User } from '@flashbulb/shared';

/** The signed-in user as my-info answers it (`test_payments`: the console's banner). */
export type SessionUser = User & Partial<Pick<MyInfo, 'test_payments'>>;

/**
 * The signed-in state, outside React so the API client can read the token and end the session.
 * The access token lives only in this module's memory: never in localStorage, where any injected
 * script could read it. A reload restores it through the httpOnly refresh cookie.
 */
export type SessionStatus = 'restoring' | 'signedOut' | 'signedIn';

export interface SessionState {
  readonly status: SessionStatus;
  readonly user: SessionUser | null;
  /** An error or info key to show on the sign-in page after the session ended (e.g. unauthorized_user). */
  readonly notice: string | null;
}

/** localStorage key of the role value (spec §6). A display hint only; the server decides access. */
export const ROLE_STORAGE_KEY = 'role';

let accessToken: string | null = null;
let state: SessionState = { status: 'restoring', user: null, notice: null };
const listeners = new Set<() => void>();

const emit = (next: SessionState): void => {
  state = next;
  for (const listener of listeners) listener();
};

export const getAccessToken = (): string | null => accessToken;
export const setAccessToken = (token: string | null): void => {
  accessToken = token;
};

export const getSessionState = (): SessionState => state;

export const subscribeSession = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const markSignedIn = (user: SessionUser): void => {
  try {
    localStorage.setItem(ROLE_STORAGE_KEY, String(user.role));
  } catch {
    // Storage may be disabled (private mode); the role there is only a hint.
  }
  emit({ status: 'signedIn', user, notice: null });
};

/** Forget the token and user; `notice` is shown on the sign-in page. */
export const markSignedOut = (notice: string | null = null): void => {
  accessToken = null;
  try {
    localStorage.removeItem(ROLE_STORAGE_KEY);
  } catch {
    // See markSignedIn.
  }
  emit({ status: 'signedOut', user: null, notice });
};

export const clearNotice = (): void => {
  if (state.notice !== null) emit({ ...state, notice: null });
};

/** Tests start from a clean slate. */
export const resetSessionStoreForTests = (): void => {
  accessToken = null;
  state = { status: 'restoring', user: null, notice: null };
  listeners.clear();
};
