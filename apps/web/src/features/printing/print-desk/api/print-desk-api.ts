import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { endpoints } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/** How often the desk reads the queue and the printers (the desk is "live" by polling). */
export const DESK_REFRESH_MS = 2000;

export const deskQueryKeys = {
  events: () => ['print-desk', 'events'] as const,
  jobs: (eventId: number) => ['print-desk', eventId, 'jobs'] as const,
  stations: (eventId: number) => ['print-desk', eventId, 'stations'] as const,
};

export const useDeskEvents = () =>
  useQuery({
    queryKey: deskQueryKeys.events(),
    queryFn: ({ signal }) =>
      callApi(endpoints.eventBasicList, { max_size: 100, page_number: 1 }, { signal }),
    select: (result) => result.events,
  });

export const useDeskJobs = (eventId: number | null) =>
  useQuery({
    queryKey: deskQueryKeys.jobs(eventId ?? 0),
    enabled: eventId !== null,
    placeholderData: keepPreviousData,
    refetchInterval: DESK_REFRESH_MS,
    queryFn: ({ signal }) => callApi(endpoints.printJobList, { event_id: eventId! }, { signal }),
  });

export const useDeskStations = (eventId: number | null) =>
  useQuery({
    queryKey: deskQueryKeys.stations(eventId ?? 0),
    enabled: eventId !== null,
    refetchInterval: DESK_REFRESH_MS,
    queryFn: ({ signal }) =>
      callApi(endpoints.printStationList, { event_id: eventId! }, { signal }),
  });

export const cancelJob = (eventId: number, jobId: number) =>
  callApi(endpoints.printJobCancel, { event_id: eventId, print_job_id: jobId });

export const reprintJob = (eventId: number, jobId: number, reason: string) =>
  callApi(endpoints.printJobReprint, { event_id: eventId, print_job_id: jobId, reason });

export const setPoolPaused = (eventId: number, pool: string, paused: boolean) =>
  callApi(endpoints.printPoolPause, {
    event_id: eventId,
    printer_pool_name: pool,
    paused: paused ? 1 : 0,
  });

export const createStation = (eventId: number, pool: string, name: string) =>
  callApi(endpoints.printStationCreate, { event_id: eventId, printer_pool_name: pool, name });

export const revokeStation = (eventId: number, id: number) =>
  callApi(endpoints.printStationRevoke, { event_id: eventId, id });
