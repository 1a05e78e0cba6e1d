import { endpoints, imageFieldError, randomFileName } from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';

/**
 * Where an image field's upload goes in the organisation's share area (albums spec §7.1):
 * `etc` for field uploads (the logo), `watermarks` for watermark images, `webapp-etc` for the
 * web-app page's images. Each below the event's code, so one event's files stay together.
 */
export type FieldImageRoot = 'etc' | 'watermarks' | 'webapp-etc';

/** The extension a field image may not have (only jpg, jpeg, png), or null when it may. */
export const refusedFieldImageExtension = (fileName: string): string | null =>
  imageFieldError(fileName) === null ? null : (fileName.split('.').pop() ?? '').toLowerCase();

/**
 * Uploads an image for an event setting: an upload grant in the organisation's share area, then
 * the multipart POST straight to storage. Answers the URL the setting stores (the server accepts
 * it as the organisation's own file, also in the fields a job reads).
 */
export const uploadFieldImage = async (
  file: File,
  target: { root: FieldImageRoot; eventCode: string; organisationId?: number },
): Promise<string> => {
  const grant = await callApi(endpoints.shareBucketUploadAccess, {
    relativeFilePath: `${target.root}/${target.eventCode}/${randomFileName(file.name)}`,
    ...(target.organisationId === undefined ? {} : { organisation_id: target.organisationId }),
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
  // S3 ignores fields after the file: it goes last.
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(grant.url, { method: 'POST', body: form });
  } catch (error) {
    throw new ApiError('Internal Error', { cause: error });
  }
  if (!response.ok) throw new ApiError('Internal Error', { status: response.status });
  return grant.public_url;
};
