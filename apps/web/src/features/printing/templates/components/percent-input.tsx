import { LayoutNumberInput } from './layout-number-input.tsx';

/** A number input over a fraction (0..1) shown in percent. */
export function PercentInput({
  label,
  value,
  onChange,
  min = 0,
  max = 100,
}: {
  label: string;
  value: number;
  onChange: (fraction: number) => void;
  min?: number;
  max?: number;
}) {
  return (
    <LayoutNumberInput
      label={label}
      value={Math.round(value * 1000) / 10}
      min={min}
      max={max}
      step={1}
      decimalScale={1}
      suffix="%"
      onNumber={(v) => onChange(v / 100)}
    />
  );
}
