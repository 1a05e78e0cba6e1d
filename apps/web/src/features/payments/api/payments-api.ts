import { useQuery } from '@tanstack/react-query';
import { endpoints, type ConnectionProvider } from '@flashbulb/shared';
import { callApi } from '../../../lib/api-client.ts';

/**
 * The organisation's provider connections and card readers (issue 11 item 6). Secrets go to the
 * server once, on connect; nothing answered back carries them (last four characters at most).
 */
export const paymentQueryKeys = {
  connections: ['payments', 'connections'] as const,
  readers: ['payments', 'readers'] as const,
};

export const usePaymentConnections = () =>
  useQuery({
    queryKey: paymentQueryKeys.connections,
    queryFn: ({ signal }) => callApi(endpoints.paymentConnectionList, {}, { signal }),
    retry: false,
  });

export const useCardReaders = () =>
  useQuery({
    queryKey: paymentQueryKeys.readers,
    queryFn: ({ signal }) => callApi(endpoints.cardReaderList, {}, { signal }),
    retry: false,
  });

export const connectProvider = (provider: ConnectionProvider, secret: string, shop?: string) =>
  callApi(endpoints.paymentConnectionSave, {
    provider,
    secret,
    ...(shop !== undefined ? { shop } : {}),
  });

export const testConnection = (provider: ConnectionProvider) =>
  callApi(endpoints.paymentConnectionTest, { provider });

export const disconnectProvider = (provider: ConnectionProvider) =>
  callApi(endpoints.paymentConnectionDelete, { provider });

export const saveCardReader = (reader: {
  name: string;
  locationId: string;
  locationName: string;
  deviceCodeId: string;
  deviceId: string;
}) =>
  callApi(endpoints.cardReaderSave, {
    name: reader.name,
    location_id: reader.locationId,
    location_name: reader.locationName,
    device_code_id: reader.deviceCodeId,
    device_id: reader.deviceId,
  });

export const checkCardReader = (id: number) => callApi(endpoints.cardReaderCheck, { id });

export const removeCardReader = (id: number) => callApi(endpoints.cardReaderDelete, { id });
