import { createContext, useContext } from 'react';

/** `app=ios|android` (albums spec §2.1): the page runs inside the mobile app's web view. */
export const InAppContext = createContext(false);

export const useInApp = (): boolean => useContext(InAppContext);
