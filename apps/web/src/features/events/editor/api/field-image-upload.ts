import { endpoints, imageFieldError, randomFileName } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';
import { postFileToStorage } from '../../../../lib/uploads/post-file-to-storage.ts';

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
  await postFileToStorage(grant, file, file.name);
  return grant.public_url;
};
