import * as endpoints from '../../../../lib/guest-endpoints.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type BodyOf } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/** The web-app page of an event by its code (`eName`). */
export const useWebappEvent = (eventName: string) =>
  useQuery({
    queryKey: ['webapp', eventName],
    queryFn: ({ signal }) => callApi(endpoints.webappEvent, { event_name: eventName }, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** Registration: finds or creates the guest's album, mails its link, sends the SMS invite. */
export const useWebappRegister = () =>
  useMutation({
    mutationFn: (body: BodyOf<typeof endpoints.webappRegister>) =>
      callApi(endpoints.webappRegister, body),
  });
