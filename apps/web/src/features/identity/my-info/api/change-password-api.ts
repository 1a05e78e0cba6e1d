import { endpoints, type BodyOf } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export const changePassword = (body: BodyOf<typeof endpoints.changePassword>) =>
  callApi(endpoints.changePassword, body);
