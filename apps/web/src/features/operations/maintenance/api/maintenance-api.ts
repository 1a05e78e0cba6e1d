import { useMutation } from '@tanstack/react-query';
import {
  backupCreate,
  integrityCheck,
  integrityRepair,
  type IntegrityAction,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/** Writes a backup on the server (into its <data dir>/backups), keeping the newest `keep`. */
export const useCreateBackup = () =>
  useMutation({
    mutationFn: (keep: number | undefined) => callApi(backupCreate, keep ? { keep } : {}),
  });

/** Runs the storage integrity check now (it reads every object: not a background poll). */
export const useIntegrityCheck = () =>
  useMutation({ mutationFn: () => callApi(integrityCheck, {}) });

/** One action on one problem of the report. */
export const useIntegrityRepair = () =>
  useMutation({
    mutationFn: (input: { key: string; action: IntegrityAction }) =>
      callApi(integrityRepair, input),
  });
