import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { totpCodeSchema } from '@flashbulb/shared';

const codeSchema = z.object({ code: totpCodeSchema });
export type MfaCodeValues = z.output<typeof codeSchema>;
type MfaCodeForm = UseFormReturn<z.input<typeof codeSchema>, unknown, MfaCodeValues>;

/** The one-field form both two-factor modals use: the 6-digit code, checked by the shared rule. */
export const useMfaCodeForm = (): MfaCodeForm =>
  useForm<z.input<typeof codeSchema>, unknown, MfaCodeValues>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });

/** A code the server refused: its error on the field, emptied so the next code can be typed. */
export const refuseMfaCode = (
  form: Pick<MfaCodeForm, 'setValue' | 'setError' | 'setFocus'>,
  errorKey: string,
): void => {
  form.setValue('code', '');
  form.setError('code', { message: errorKey });
  form.setFocus('code');
};
