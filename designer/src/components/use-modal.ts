import { useEffect, useSyncExternalStore, type RefObject } from "react";

/**
 * The open modal dialogs, oldest first. A modal `<dialog>` sits in the browser's top layer, above every
 * z-index, and makes the rest of the page inert: whatever must show over it (toasts) renders inside the
 * last one.
 */
const stack: HTMLDialogElement[] = [];
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getTop = (): HTMLDialogElement | null => stack.at(-1) ?? null;

/** Shows the `<dialog>` in `ref` as a modal while the component is mounted, on top of the modal stack. */
export function useModal(ref: RefObject<HTMLDialogElement | null>): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    stack.push(dialog);
    changed();
    return () => {
      stack.splice(stack.lastIndexOf(dialog), 1);
      changed();
    };
  }, [ref]);
}

/** The modal dialog on top of the page, or null when none is open. */
export function useTopModal(): HTMLDialogElement | null {
  return useSyncExternalStore(subscribe, getTop, () => null);
}
