import { useQuery } from '@tanstack/react-query';
import {
  curationUpdate,
  ownerPhotoList,
  photoUploadAccess,
  photoUploadComplete,
  randomFileName,
  type FlashbulbEvent,
  type Photo,
} from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';
import { fetchEventByCode } from '../../../../lib/event-by-code.ts';

/** Photos per list call while looking for the edited photo (the call's limit). */
const LIST_PAGE = 1000;
/** Far enough for any event we host; beyond it the photo counts as not found. */
const MAX_PAGES = 50;

export interface EditTarget {
  readonly event: FlashbulbEvent;
  readonly photo: Photo;
}

const findPhoto = async (eventId: number, photoId: number, signal: AbortSignal): Promise<Photo> => {
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const result = await callApi(
      ownerPhotoList,
      { event_id: eventId, max_size: LIST_PAGE, page_number: page, get_from_tmp: 1 },
      { signal },
    );
    const photo = result.photos.find((candidate) => candidate.id === photoId);
    if (photo) return photo;
    if (result.photos.length < LIST_PAGE) break;
  }
  throw new ApiError('not_found', { status: 404 });
};

/** The event (by code) and the photo to edit (by id, searched in the event's list). */
export const useEditTarget = (eventCode: string, photoId: number | null) =>
  useQuery({
    queryKey: ['image-edit', eventCode, photoId],
    enabled: eventCode !== '' && photoId !== null,
    retry: false,
    queryFn: async ({ signal }): Promise<EditTarget> => {
      const event = await fetchEventByCode(eventCode, signal);
      const photo = await findPhoto(event.id, photoId ?? 0, signal);
      return { event, photo };
    },
  });

export type SaveStep = 'grant' | 'upload' | 'complete' | 'curate';

/** Storage refused the upload: reported with the generic text, the details go to the console. */
const storageError = (status: number): ApiError =>
  new ApiError('Internal Error', { status, message: `storage upload failed: HTTP ${status}` });

/**
 * Save an edit as a new photo and keep the original: upload grant → multipart POST to storage
 * (fields, then the file last) → upload-complete → curation update of the original pointing at the
 * new photo's file. Returns the new photo and the updated original.
 */
export const saveEditedPhoto = async (
  target: EditTarget,
  jpeg: Blob,
  onStep: (step: SaveStep) => void,
): Promise<{ edited: Photo; original: Photo }> => {
  const fileName = randomFileName(target.photo.file_name.replace(/\.[^.]*$/, '') + '.jpg');
  onStep('grant');
  const grant = await callApi(photoUploadAccess, {
    event_name: target.event.name,
    file_name: fileName,
    content_type: 'image/jpeg',
  });
  onStep('upload');
  const form = new FormData();
  for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
  form.append('file', jpeg, fileName);
  let response: Response;
  try {
    response = await fetch(grant.url, { method: 'POST', body: form });
  } catch (error) {
    throw new ApiError('Internal Error', { cause: error });
  }
  if (response.status !== 201 && !response.ok) throw storageError(response.status);
  onStep('complete');
  // The copy links to its original (is_original 0), so the Original filter leaves it out.
  const edited = await callApi(photoUploadComplete, {
    key: grant.key,
    original_photo_id: target.photo.id,
  });
  onStep('curate');
  const original = await callApi(curationUpdate, {
    original_photo_id: target.photo.id,
    full_path: edited.full_path,
  });
  return { edited, original };
};
