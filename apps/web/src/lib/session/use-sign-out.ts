import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { signOut } from './session-api.ts';

/** Sign out on the server, forget everything cached for this user, go to the site root. */
export const useSignOut = (): (() => Promise<void>) => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut();
    queryClient.clear();
    void navigate('/', { replace: true });
  }, [navigate, queryClient]);
};
