import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { totpCodeSchema } from '@flashbulb/shared';

const codeSchema = z.object({ code: totpCodeSchema });
export type MfaCodeValues = z.output<typeof codeSchema>;

/** The one-field form both two-factor modals use: the 6-digit code, checked by the shared rule. */
export const useMfaCodeForm = () =>
  useForm<z.input<typeof codeSchema>, unknown, MfaCodeValues>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });
