import { useQuery } from '@tanstack/react-query';
import { endpoints, type BodyOf, type PptDetail, type TemplateLayout } from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';
import { watermarkPath } from '../utils/template-geometry.ts';

export const templateQueryKey = (id: number) => ['print-template', id] as const;

/** One template with its sheet (editor and preview). */
export const useTemplate = (id: number | null) =>
  useQuery({
    queryKey: templateQueryKey(id ?? 0),
    enabled: id !== null,
    retry: false,
    queryFn: ({ signal }) => callApi(endpoints.pptRetrieve, { id: id ?? 0 }, { signal }),
  });

export const useOrganisationChoices = (enabled: boolean) =>
  useQuery({
    queryKey: ['organisations'],
    enabled,
    queryFn: ({ signal }) => callApi(endpoints.listOrganisations, {}, { signal }),
    select: (result) => result.organisations,
  });

export const createTemplate = (body: BodyOf<typeof endpoints.pptCreate>): Promise<PptDetail> =>
  callApi(endpoints.pptCreate, body);

export const updateTemplate = (
  id: number,
  name: string,
  layout: TemplateLayout,
): Promise<PptDetail> => callApi(endpoints.pptUpdate, { id, name, layout });

/**
 * Uploads an image to the organisation's `watermarks/` folder (share area): upload grant →
 * multipart POST straight to storage. Answers the storage key and where the browser reads it.
 */
export const uploadTemplateImage = async (
  file: File,
  organisationId: number | undefined,
): Promise<{ key: string; url: string }> => {
  const grant = await callApi(endpoints.shareBucketUploadAccess, {
    relativeFilePath: watermarkPath(file.name, Date.now()),
    ...(organisationId === undefined ? {} : { organisation_id: organisationId }),
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(grant.url, { method: 'POST', body: form });
  } catch (error) {
    throw new ApiError('Internal Error', { cause: error });
  }
  if (response.status !== 201 && !response.ok)
    throw new ApiError('Internal Error', {
      status: response.status,
      message: `storage upload failed: HTTP ${response.status}`,
    });
  return { key: grant.key, url: grant.public_url };
};
