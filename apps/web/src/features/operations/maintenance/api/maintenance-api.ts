import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  backupCreate,
  backupList,
  integrityCheck,
  integrityRepair,
  type IntegrityAction,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

const backupsKey = ['operations', 'backups'] as const;

/** The backups in the server's folder, newest first: the last one's time, size and duration. */
export const useBackups = () =>
  useQuery({
    queryKey: backupsKey,
    queryFn: ({ signal }) => callApi(backupList, {}, { signal }),
  });

/** Writes a backup on the server (into its <data dir>/backups), keeping the newest `keep`. */
export const useCreateBackup = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keep: number | undefined) => callApi(backupCreate, keep ? { keep } : {}),
    onSuccess: () => client.invalidateQueries({ queryKey: backupsKey }),
  });
};

/** Runs the storage integrity check now (it reads every object: not a background poll). */
export const useIntegrityCheck = () =>
  useMutation({ mutationFn: () => callApi(integrityCheck, {}) });

/** One action on one problem of the report. */
export const useIntegrityRepair = () =>
  useMutation({
    mutationFn: (input: { key: string; action: IntegrityAction }) =>
      callApi(integrityRepair, input),
  });
