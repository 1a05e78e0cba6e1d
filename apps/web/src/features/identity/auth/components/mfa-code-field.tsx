import { forwardRef } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';

/** The 6-digit authenticator code input: numeric keyboard on phones, one-time-code autofill. */
export const MfaCodeField = forwardRef<HTMLInputElement, TextInputProps>(
  function MfaCodeField(props, ref) {
    return (
      <TextInput
        ref={ref}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        data-autofocus
        styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
        {...props}
      />
    );
  },
);
