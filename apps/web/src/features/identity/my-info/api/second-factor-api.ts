import { endpoints } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/** The authenticator as the second factor (on), or the password alone (off: exempt users only). */
export const setSecondFactor = (authenticator: boolean) =>
  callApi(endpoints.setMfaPreference, {
    software_token_mfa_settings: { enabled: authenticator, preferred_mfa: authenticator },
  });
