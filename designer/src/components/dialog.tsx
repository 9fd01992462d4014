import { useId, useRef, type ReactElement, type ReactNode } from "react";
import { Icon } from "./icon.js";
import { useModal } from "./use-modal.js";

interface DialogProps {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  onClose: () => void;
  testId: string;
  size?: "small" | "medium" | "large";
}

/** A modal dialog (native <dialog>: focus stays inside, Escape closes). */
export function Dialog({
  title,
  children,
  footer,
  onClose,
  testId,
  size = "medium",
}: DialogProps): ReactElement {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useModal(ref);
  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${size}`}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        // a click on the backdrop (the dialog element itself, outside its box) closes it
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dialog-box">
        <header className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div className="dialog-body">{children}</div>
        {footer ? <footer className="dialog-foot">{footer}</footer> : null}
      </div>
    </dialog>
  );
}

interface DialogActionsProps {
  onCancel: () => void;
  onAccept: () => void;
  acceptLabel: ReactNode;
  acceptTestId: string;
  disabled?: boolean;
  danger?: boolean;
  autoFocus?: boolean;
}

/** The usual footer: Cancel, then the one action the dialog is for. */
export function DialogActions({
  onCancel,
  onAccept,
  acceptLabel,
  acceptTestId,
  disabled = false,
  danger = false,
  autoFocus = false,
}: DialogActionsProps): ReactElement {
  return (
    <>
      <button type="button" className="btn" onClick={onCancel}>
        Cancel
      </button>
      <button
        type="button"
        className={`btn ${danger ? "btn-danger" : "btn-primary"}`}
        data-testid={acceptTestId}
        disabled={disabled}
        autoFocus={autoFocus}
        onClick={onAccept}
      >
        {acceptLabel}
      </button>
    </>
  );
}
