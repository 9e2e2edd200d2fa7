import { useEffect, useId, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useLingui } from "@lingui/react/macro";

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Show the × button in the corner (default true). */
  closeButton?: boolean;
  /** A click on the backdrop closes the modal (default false: dialogs that ask to confirm stay open). */
  closeOnOutsideClick?: boolean;
  fullScreen?: boolean;
  /** Buttons shown at the bottom. */
  actions?: ReactNode;
  role?: "dialog" | "alertdialog";
}

const focusable = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

export function Modal({
  title,
  onClose,
  children,
  closeButton = true,
  closeOnOutsideClick = false,
  fullScreen = false,
  actions,
  role = "dialog",
}: ModalProps) {
  const { t } = useLingui();
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>(focusable);
    (first ?? ref.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
      if (event.key === "Tab" && ref.current) {
        // Keep focus inside the dialog.
        const items = [...ref.current.querySelectorAll<HTMLElement>(focusable)];
        if (items.length === 0) return;
        const [head, tail] = [items[0]!, items[items.length - 1]!];
        if (event.shiftKey && document.activeElement === head) {
          tail.focus();
          event.preventDefault();
        } else if (!event.shiftKey && document.activeElement === tail) {
          head.focus();
          event.preventDefault();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      before?.focus?.();
    };
  }, [onClose]);

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut; Escape closes from the keyboard (document listener above)
    <div
      className="modal-backdrop"
      data-testid="modal-backdrop"
      onMouseDown={(e) => {
        if (closeOnOutsideClick && e.target === e.currentTarget) onClose();
      }}
    >
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: role is dialog or alertdialog (the prop), both modal */}
      <div
        ref={ref}
        className={fullScreen ? "modal modal-full" : "modal"}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <h2 id={titleId}>{title}</h2>
        {closeButton && (
          <button type="button" className="btn btn-icon modal-close" aria-label={t`Close`} onClick={onClose}>
            ×
          </button>
        )}
        {children}
        {actions && <div className="modal-actions">{actions}</div>}
      </div>
    </div>,
    document.body,
  );
}

/** A yes/no question; the confirm button names the action. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  danger = false,
  busy = false,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
  busy?: boolean;
}) {
  const { t } = useLingui();
  return (
    <Modal
      title={title}
      onClose={onCancel}
      role="alertdialog"
      closeButton={false}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel}>{t`Cancel`}</button>
          <button type="button" className={danger ? "btn btn-danger" : "btn btn-primary"} onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
