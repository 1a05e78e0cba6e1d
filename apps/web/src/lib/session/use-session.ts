import { useSyncExternalStore } from 'react';
import { getSessionState, subscribeSession, type SessionState } from '../session-store.ts';

export const useSession = (): SessionState =>
  useSyncExternalStore(subscribeSession, getSessionState, getSessionState);
