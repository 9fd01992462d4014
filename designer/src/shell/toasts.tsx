import { useEffect, type ReactElement } from "react";
import { createPortal } from "react-dom";
import { useEditor, useUi } from "../editor/editor-context.js";
import type { Toast } from "../store/ui-store.js";
import { Icon } from "../components/icon.js";
import { useTopModal } from "../components/use-modal.js";

function ToastItem({ toast }: { toast: Toast }): ReactElement {
  const editor = useEditor();
  useEffect(() => {
    const timer = setTimeout(
      () => editor.ui.getState().dismissToast(toast.id),
      toast.tone === "error" ? 8000 : 4000,
    );
    return () => clearTimeout(timer);
  }, [editor, toast]);
  return (
    <div
      className={`toast toast-${toast.tone}`}
      role={toast.tone === "error" ? "alert" : "status"}
      data-testid={`toast-${toast.tone}`}
    >
      <Icon name={toast.tone === "error" ? "alert" : toast.tone === "success" ? "check" : "info"} />
      <span>{toast.message}</span>
      <button
        type="button"
        className="icon-btn"
        aria-label="Dismiss"
        onClick={() => editor.ui.getState().dismissToast(toast.id)}
      >
        <Icon name="close" size={14} />
      </button>
    </div>
  );
}

/**
 * Short messages at the bottom of the screen. With a modal dialog open they render inside it: nothing else
 * shows over a modal's backdrop or takes a click (an export's error toast was unreadable under its dialog).
 */
export function Toasts(): ReactElement {
  const toasts = useUi((state) => state.toasts);
  const modal = useTopModal();
  const list = (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
  return modal ? createPortal(list, modal) : list;
}
