import { useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from "react";
import { Icon, type IconName } from "./icon.js";

interface MenuButtonProps {
  /** The button's visible label: a menu is found by its name, not by hovering over an icon. */
  label: string;
  icon: IconName;
  title: string;
  testId: string;
  /** The menu's items (`MenuButtonItem`s); they stay in the page while closed, hidden. */
  children: ReactNode;
}

/**
 * A labelled button that opens a menu under it. Escape, a click outside or choosing an item closes it. The
 * items are rendered even while closed (hidden), so their disabled state and reason are always current.
 */
export function MenuButton({ label, icon, title, testId, children }: MenuButtonProps): ReactElement {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  const menuId = useId();
  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLButtonElement>("[role=menuitem]:not(:disabled)")?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        root.current?.querySelector<HTMLButtonElement>("[aria-haspopup=menu]")?.focus();
        return;
      }
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
      // arrows move between the enabled items, round the ends
      const items = [
        ...(root.current?.querySelectorAll<HTMLButtonElement>("[role=menuitem]:not(:disabled)") ?? []),
      ];
      if (items.length === 0) return;
      event.preventDefault();
      const at = items.indexOf(document.activeElement as HTMLButtonElement);
      const step = event.key === "ArrowDown" ? 1 : -1;
      const next =
        at === -1 ? (step === 1 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
      items[next]?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);
  return (
    <span
      className="menu-button"
      ref={root}
      onClick={(event) => {
        // an item chosen closes the menu (one that keeps it open stops the click)
        if ((event.target as HTMLElement).closest("[role=menuitem]")) setOpen(false);
      }}
    >
      <button
        type="button"
        className="btn btn-ghost"
        data-testid={testId}
        title={title}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <Icon name={icon} />
        <span className="btn-label">{label}</span>
        <Icon name="down" size={12} />
      </button>
      <div id={menuId} className="menu-button-menu" role="menu" aria-label={label} hidden={!open}>
        {children}
      </div>
    </span>
  );
}

/** One item of a `MenuButton`: an icon, a name and a line that says what it is for. */
export function MenuButtonItem(props: {
  icon: IconName;
  label: string;
  detail: string;
  testId: string;
  title?: string;
  disabled?: boolean;
  /** Keep the menu open after the click (an item that cycles a setting shows its new value). */
  keepOpen?: boolean;
  onSelect: () => void;
}): ReactElement {
  return (
    <button
      type="button"
      role="menuitem"
      className="menu-item menu-button-item"
      data-testid={props.testId}
      title={props.title}
      aria-label={props.label}
      disabled={props.disabled}
      onClick={(event) => {
        if (props.keepOpen) event.stopPropagation();
        props.onSelect();
      }}
    >
      <Icon name={props.icon} />
      <span className="menu-button-item-text">
        <span className="menu-button-item-label">{props.label}</span>
        <span className="menu-button-item-detail">{props.detail}</span>
      </span>
    </button>
  );
}
