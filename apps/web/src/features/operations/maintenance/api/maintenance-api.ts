import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  backupCreate,
  backupList,
  backupRestore,
  backupScheduleGet,
  backupScheduleSet,
  integrityCheck,
  integrityRepair,
  integrityReports,
  type BackupSchedule,
  type IntegrityAction,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

const backupsKey = ['operations', 'backups'] as const;
const scheduleKey = ['operations', 'backup-schedule'] as const;
const reportsKey = ['operations', 'integrity-reports'] as const;

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
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: backupsKey });
      await client.invalidateQueries({ queryKey: scheduleKey });
    },
  });
};

/** Restores one of the server's backups into the running server (it answers 503 meanwhile). */
export const useRestoreBackup = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (path: string) => callApi(backupRestore, { path }),
    onSuccess: () => client.invalidateQueries(),
  });
};

/** The schedule, retention, last backup and next run. */
export const useBackupSchedule = () =>
  useQuery({
    queryKey: scheduleKey,
    queryFn: ({ signal }) => callApi(backupScheduleGet, {}, { signal }),
  });

export const useSetBackupSchedule = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { schedule: BackupSchedule; keep: number }) =>
      callApi(backupScheduleSet, input),
    onSuccess: (state) => client.setQueryData(scheduleKey, state),
  });
};

/** The kept integrity reports (nightly and on demand) and the newest in full. */
export const useIntegrityReports = () =>
  useQuery({
    queryKey: reportsKey,
    queryFn: ({ signal }) => callApi(integrityReports, {}, { signal }),
  });

/** Runs the storage integrity check now (it reads every object: not a background poll). */
export const useIntegrityCheck = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(integrityCheck, {}),
    onSuccess: () => client.invalidateQueries({ queryKey: reportsKey }),
  });
};

/** One action on one problem of the report. */
export const useIntegrityRepair = () =>
  useMutation({
    mutationFn: (input: { key: string; action: IntegrityAction }) =>
      callApi(integrityRepair, input),
  });
