import { ApiError } from '../api-client.ts';
import type { StorageGrant } from './post-to-storage.ts';

/**
 * The direct upload of a small file (a setting's image, a selfie; no progress to show): a multipart POST of the grant's
 * fields, then the file last (S3 ignores fields after `file`). A network failure or a refusal is
 * an `Internal Error`; one that never arrived has status 0 (the kiosk's outbox keeps it to retry).
 */
export const postFileToStorage = async (
  grant: StorageGrant,
  file: Blob,
  fileName: string,
): Promise<void> => {
  const form = new FormData();
  for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
  form.append('file', file, fileName);
  let response: Response;
  try {
    response = await fetch(grant.url, { method: 'POST', body: form });
  } catch (error) {
    throw new ApiError('Internal Error', { cause: error, status: 0 });
  }
  if (!response.ok) throw new ApiError('Internal Error', { status: response.status });
};
