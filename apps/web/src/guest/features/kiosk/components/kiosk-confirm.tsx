import { useId, type ReactNode } from 'react';

/**
 * A kiosk's question over the whole screen: a modal alert dialog named by its first line (the
 * question), then what the caller shows under it (its answers). `onEscape`: the answer Escape
 * gives, where the question has a "no".
 */
export function KioskConfirm({
  title,
  className,
  titleClassName,
  backdropClassName,
  onEscape,
  children,
  ...data
}: {
  title: ReactNode;
  /** Added to `kiosk-confirm` (each dialog's own look). */
  className?: string;
  titleClassName?: string;
  /** Added to `kiosk-confirm-backdrop`. */
  backdropClassName?: string;
  onEscape?: () => void;
  children: ReactNode;
} & { [attribute: `data-${string}`]: boolean | string | undefined }) {
  const titleId = useId();
  return (
    <div className={withClass('kiosk-confirm-backdrop', backdropClassName)}>
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={withClass('kiosk-confirm', className)}
        onKeyDown={
          onEscape &&
          ((event) => {
            if (event.key === 'Escape') onEscape();
          })
        }
        {...data}
      >
        <p id={titleId} className={titleClassName}>
          {title}
        </p>
        {children}
      </div>
    </div>
  );
}

const withClass = (base: string, extra: string | undefined) => (extra ? `${base} ${extra}` : base);

interface Answer {
  label: string;
  onClick: () => void;
  className?: string;
}

/**
 * A yes-or-no question on the kiosk: the safe answer (`no`: keep, not now) has the focus and is
 * what Escape gives, so a stray key changes nothing; `yes` stands beside it.
 */
export function KioskQuestion({
  title,
  className,
  no,
  yes,
  children,
}: {
  title: ReactNode;
  className?: string;
  no: Answer;
  yes: Answer;
  /** Shown between the question and its answers. */
  children?: ReactNode;
}) {
  return (
    <KioskConfirm title={title} className={className} onEscape={no.onClick}>
      {children}
      <div className="kiosk-confirm-actions">
        <button type="button" autoFocus onClick={no.onClick}>
          {no.label}
        </button>
        <button type="button" className={yes.className} onClick={yes.onClick}>
          {yes.label}
        </button>
      </div>
    </KioskConfirm>
  );
}
