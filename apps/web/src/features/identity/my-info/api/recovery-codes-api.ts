import { endpoints, type BodyOf } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export const fetchRecoveryCodesStatus = (signal?: AbortSignal) =>
  callApi(endpoints.recoveryCodesStatus, {}, { signal });

export const regenerateRecoveryCodes = (body: BodyOf<typeof endpoints.regenerateRecoveryCodes>) =>
  callApi(endpoints.regenerateRecoveryCodes, body);
