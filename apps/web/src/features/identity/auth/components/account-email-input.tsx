import { forwardRef } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../lib/error-text.ts';

type AccountEmailInputProps = Omit<TextInputProps, 'label' | 'type' | 'autoComplete' | 'error'> & {
  /** The message key of the field's error, if any. */
  readonly errorKey: string | undefined;
};

/** The account's e-mail address, which is its username: the browser offers the saved one. */
export const AccountEmailInput = forwardRef<HTMLInputElement, AccountEmailInputProps>(
  function AccountEmailInput({ errorKey, ...props }, ref) {
    const { t } = useTranslation();
    const errorText = useErrorText();
    return (
      <TextInput
        ref={ref}
        label={t('common.email')}
        type="email"
        autoComplete="username"
        error={errorKey && errorText(errorKey)}
        {...props}
      />
    );
  },
);
