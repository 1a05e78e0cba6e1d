import { useQuery } from '@tanstack/react-query';
import { endpoints, type ConnectionProvider } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/**
 * The organisation's provider connections and card readers. Secrets go to the
 * server once, on connect; nothing answered back carries them (last four characters at most).
 */
export const paymentQueryKeys = {
  connections: ['payments', 'connections'] as const,
  readers: ['payments', 'readers'] as const,
};

/** The organisation the page is about (super users choose; admins have their own). */
export type Org = number | null;
const orgBody = (organisationId: Org) =>
  organisationId === null ? {} : { organisation_id: organisationId };

/** The organisations the caller reaches (admins: their own; super users: every one). */
export const usePaymentOrganisations = () =>
  useQuery({
    queryKey: ['payments', 'organisations'] as const,
    queryFn: ({ signal }) => callApi(endpoints.listOrganisations, {}, { signal }),
    select: (result) => result.organisations,
  });

export const usePaymentConnections = (organisationId: Org, enabled = true) =>
  useQuery({
    queryKey: [...paymentQueryKeys.connections, organisationId],
    enabled,
    queryFn: ({ signal }) =>
      callApi(endpoints.paymentConnectionList, orgBody(organisationId), { signal }),
    retry: false,
  });

export const useCardReaders = (organisationId: Org, enabled = true) =>
  useQuery({
    queryKey: [...paymentQueryKeys.readers, organisationId],
    enabled,
    queryFn: ({ signal }) => callApi(endpoints.cardReaderList, orgBody(organisationId), { signal }),
    retry: false,
  });

export const connectProvider = (
  organisationId: Org,
  provider: ConnectionProvider,
  secret: string,
  shop?: string,
) =>
  callApi(endpoints.paymentConnectionSave, {
    ...orgBody(organisationId),
    provider,
    secret,
    ...(shop !== undefined ? { shop } : {}),
  });

export const testConnection = (organisationId: Org, provider: ConnectionProvider) =>
  callApi(endpoints.paymentConnectionTest, { ...orgBody(organisationId), provider });

export const disconnectProvider = (organisationId: Org, provider: ConnectionProvider) =>
  callApi(endpoints.paymentConnectionDelete, { ...orgBody(organisationId), provider });

export const saveCardReader = (
  organisationId: Org,
  reader: {
    name: string;
    locationId: string;
    locationName: string;
    deviceCodeId: string;
    deviceId: string;
  },
) =>
  callApi(endpoints.cardReaderSave, {
    ...orgBody(organisationId),
    name: reader.name,
    location_id: reader.locationId,
    location_name: reader.locationName,
    device_code_id: reader.deviceCodeId,
    device_id: reader.deviceId,
  });

export const checkCardReader = (organisationId: Org, id: number) =>
  callApi(endpoints.cardReaderCheck, { ...orgBody(organisationId), id });

export const removeCardReader = (organisationId: Org, id: number) =>
  callApi(endpoints.cardReaderDelete, { ...orgBody(organisationId), id });
