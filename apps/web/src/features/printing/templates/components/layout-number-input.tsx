import { NumberInput, type NumberInputProps } from '@mantine/core';

/**
 * A small number input of the template editor: only a number changes the layout, so clearing the
 * field while typing leaves the value as it was.
 */
export function LayoutNumberInput({
  onNumber,
  ...props
}: Omit<NumberInputProps, 'size' | 'onChange'> & { onNumber: (value: number) => void }) {
  return (
    <NumberInput
      size="xs"
      {...props}
      onChange={(v) => {
        if (typeof v === 'number') onNumber(v);
      }}
    />
  );
}
