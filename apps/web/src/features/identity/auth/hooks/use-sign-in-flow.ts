import { useCallback, useState } from 'react';
import type { SignInResult } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { clearNotice } from '../../../../lib/session-store.ts';
import { completeSignIn } from '../../../../lib/session/session-api.ts';
import { signIn } from '../api/auth-api.ts';

/** Where the user is in the Cognito-like sign-in: credentials, then zero or more challenges. */
export type SignInStep =
  | { readonly kind: 'credentials' }
  | { readonly kind: 'newPassword'; readonly session: string }
  | { readonly kind: 'mfaSetup'; readonly session: string }
  | { readonly kind: 'mfaCode'; readonly session: string }
  /** Tokens received; my-info is loading. */
  | { readonly kind: 'finishing' };

export interface SignInFlow {
  readonly step: SignInStep;
  /** A form-level error key for the credentials step. */
  readonly errorKey: string | null;
  readonly submitCredentials: (values: { username: string; password: string }) => Promise<void>;
  /** Continue with what sign-in or respond-to-challenge answered. */
  readonly handleResult: (result: SignInResult) => Promise<void>;
  /** Back to the credentials form, e.g. after `invalid_session` or when a modal is closed. */
  readonly restart: (errorKey?: string | null) => void;
}

export const useSignInFlow = (): SignInFlow => {
  const [step, setStep] = useState<SignInStep>({ kind: 'credentials' });
  const [errorKey, setErrorKey] = useState<string | null>(null);

  const handleResult = useCallback(async (result: SignInResult) => {
    if ('authentication_result' in result) {
      setStep({ kind: 'finishing' });
      // On success the session turns signed-in and the console replaces this page; on failure the
      // session holds the reason (spec §4 step 5) and we are back at the credentials.
      await completeSignIn(result.authentication_result);
      setStep({ kind: 'credentials' });
      return;
    }
    switch (result.challenge_name) {
      case 'NEW_PASSWORD_REQUIRED':
        setStep({ kind: 'newPassword', session: result.session });
        break;
      case 'MFA_SETUP':
        setStep({ kind: 'mfaSetup', session: result.session });
        break;
      case 'SOFTWARE_TOKEN_MFA':
        setStep({ kind: 'mfaCode', session: result.session });
        break;
    }
  }, []);

  const submitCredentials = useCallback(
    async (values: { username: string; password: string }) => {
      clearNotice();
      setErrorKey(null);
      try {
        const result = await signIn(values);
        await handleResult(result);
      } catch (error) {
        setErrorKey(errorKeyOf(error));
      }
    },
    [handleResult],
  );

  const restart = useCallback((key: string | null = null) => {
    setErrorKey(key);
    setStep({ kind: 'credentials' });
  }, []);

  return { step, errorKey, submitCredentials, handleResult, restart };
};
