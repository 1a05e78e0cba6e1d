import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  attendeeList,
  generateAttendeeList,
  lockAttendee,
  eraseAttendee,
  exportAttendee,
  normaliseAttendeeId,
  type Attendee,
  type BodyOf,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/** Attendees per table page. */
export const ATTENDEE_PAGE_SIZE = 50;
/** Attendees per call when the generated ids are read back for the CSV (the call's maximum). */
export const ATTENDEE_READ_PAGE_SIZE = 1000;

export const attendeeQueryKeys = {
  lists: (eventId: number) => ['attendees', eventId, 'list'] as const,
  list: (eventId: number, page: number, search: string) =>
    ['attendees', eventId, 'list', page, search] as const,
};

/** One table page of the event's attendees, newest first; `search` is an id prefix. */
export const useAttendeeList = (eventId: number, page: number, search: string) => {
  const prefix = normaliseAttendeeId(search);
  return useQuery({
    queryKey: attendeeQueryKeys.list(eventId, page, prefix),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      callApi(
        attendeeList,
        {
          event_id: eventId,
          max_size: ATTENDEE_PAGE_SIZE,
          page_number: page,
          ...(prefix ? { attendee_uid: prefix } : {}),
        },
        { signal },
      ),
  });
};

export type GenerateAttendeesBody = BodyOf<typeof generateAttendeeList>;

export const generateAttendees = (body: GenerateAttendeesBody) =>
  callApi(generateAttendeeList, body);

export const setAttendeeLocked = (eventId: number, attendeeUid: string, locked: boolean) =>
  callApi(lockAttendee, {
    event_id: eventId,
    attendee_uid: attendeeUid,
    is_locked: locked ? 1 : 0,
  });

/** A privacy export: the counts and a five-minute link to the ZIP. */
export const exportAttendeeData = (attendeeUid: string) =>
  callApi(exportAttendee, { attendee_uid: attendeeUid });

/** A privacy erasure (orders stay, under a placeholder id). */
export const eraseAttendeeData = (attendeeUid: string) =>
  callApi(eraseAttendee, { attendee_uid: attendeeUid });

/**
 * The `count` newest attendees of the event, read page by page: after a generation they are the
 * ids just generated (the generate call answers only the first 1,000 inline).
 */
export const readNewestAttendees = async (
  eventId: number,
  count: number,
  onProgress: (done: number) => void,
  signal?: AbortSignal,
): Promise<Attendee[]> => {
  const attendees: Attendee[] = [];
  for (let page = 1; attendees.length < count; page += 1) {
    const result = await callApi(
      attendeeList,
      { event_id: eventId, max_size: ATTENDEE_READ_PAGE_SIZE, page_number: page },
      { signal },
    );
    attendees.push(...result.attendees.slice(0, count - attendees.length));
    onProgress(attendees.length);
    if (result.attendees.length < ATTENDEE_READ_PAGE_SIZE) break;
  }
  return attendees;
};
