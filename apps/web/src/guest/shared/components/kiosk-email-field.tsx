import { useId, type InputHTMLAttributes } from 'react';
import { EMAIL_MAX_LENGTH } from '@flashbulb/shared';

type PassedOn = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'type' | 'value' | 'onChange' | 'autoComplete' | 'maxLength'
>;

/**
 * A guest's e-mail address typed at a kiosk: its label and the input. A kiosk is shared, so the
 * browser is never asked to offer (or keep) the addresses earlier visitors typed, and the field
 * takes no more than the server accepts. `id` names the input when the form points at it (an
 * e-mail endings list); other input attributes pass on.
 */
export function KioskEmailField({
  label,
  value,
  onChange,
  id,
  ...input
}: PassedOn & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  id?: string;
}) {
  const ownId = useId();
  const inputId = id ?? ownId;
  return (
    <>
      <label htmlFor={inputId}>{label}</label>
      <input
        {...input}
        id={inputId}
        type="email"
        autoComplete="off"
        maxLength={EMAIL_MAX_LENGTH}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </>
  );
}
