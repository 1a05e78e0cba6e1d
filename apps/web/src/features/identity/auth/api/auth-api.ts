import { endpoints, TOTP_DEVICE_NAME, type BodyOf } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export const signIn = (body: BodyOf<typeof endpoints.signIn>) => callApi(endpoints.signIn, body);

export const respondToChallenge = (body: BodyOf<typeof endpoints.respondToChallenge>) =>
  callApi(endpoints.respondToChallenge, body);

export const associateSoftwareToken = (session: string) =>
  callApi(endpoints.associateSoftwareToken, { session });

export const verifySoftwareToken = (session: string, code: string) =>
  callApi(endpoints.verifySoftwareToken, { session, code, friendly_device_name: TOTP_DEVICE_NAME });

export const forgotPassword = (body: BodyOf<typeof endpoints.forgotPassword>) =>
  callApi(endpoints.forgotPassword, body);

export const confirmForgotPassword = (body: BodyOf<typeof endpoints.confirmForgotPassword>) =>
  callApi(endpoints.confirmForgotPassword, body);

export const fetchSetupStatus = (signal?: AbortSignal) =>
  callApi(endpoints.setupStatus, {}, { signal });

export const createFirstAdmin = (body: BodyOf<typeof endpoints.createFirstAdmin>) =>
  callApi(endpoints.createFirstAdmin, body);
