import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './icons.tsx';

/**
 * A button that shows an icon and says what it does: the label is the accessible name (and the
 * tooltip); `showLabel` also prints it beside the icon. Variants: the default surface, `ghost`
 * (no background) and `on-photo` (translucent, for controls over pictures).
 */
export const IconButton = forwardRef<
  HTMLButtonElement,
  Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & {
    icon: IconName;
    label: string;
    showLabel?: boolean;
    variant?: 'surface' | 'ghost' | 'on-photo' | 'primary';
  }
>(function IconButton(
  { icon, label, showLabel = false, variant = 'surface', className, type = 'button', ...rest },
  ref,
) {
  const classes = [
    'fb-icon-button',
    showLabel ? 'fb-icon-button--labelled' : '',
    variant === 'primary' ? 'fb-button--primary' : `fb-icon-button--${variant}`,
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      ref={ref}
      type={type}
      className={classes}
      aria-label={showLabel ? undefined : label}
      title={label}
      {...rest}
    >
      <Icon name={icon} />
      {showLabel && <span>{label}</span>}
    </button>
  );
});
