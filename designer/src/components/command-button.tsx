import type { ReactElement, ReactNode } from "react";
import { getCommandPermission, useDenied } from "../store/me-store.js";
import { useDocument, useEditor, useUi } from "../editor/editor-context.js";
import { formatShortcut } from "../editor/shortcut.js";
import { Icon, type IconName } from "./icon.js";

interface CommandButtonProps {
  command: string;
  icon?: IconName;
  /** Show the label next to the icon (else only in the tooltip). */
  showLabel?: boolean;
  variant?: "primary" | "ghost";
  children?: ReactNode;
  testId?: string;
  /** The label may hide on a narrow window (the header's secondary buttons); the tooltip keeps it. */
  collapsible?: boolean;
}

/** A toolbar button that runs a registry command; disabled and tooltipped from the command itself. */
export function CommandButton({
  command: name,
  icon,
  showLabel,
  variant = "ghost",
  children,
  testId,
  collapsible,
}: CommandButtonProps): ReactElement | null {
  const editor = useEditor();
  // re-evaluated whenever either store changes, so the disabled state is always current
  const enabledByDocument = useDocument(() => editor.commands.isEnabled(name, editor));
  const enabledByUi = useUi(() => editor.commands.isEnabled(name, editor));
  const command = editor.commands.get(name);
  const denied = useDenied(command ? getCommandPermission(command) : undefined);
  if (!command) return null;
  const shortcut = command.shortcut ? ` (${formatShortcut(command.shortcut, editor.isMac)})` : "";
  return (
    <button
      type="button"
      className={`btn ${variant === "primary" ? "btn-primary" : "btn-ghost"}${showLabel ? "" : " btn-icon"}${collapsible ? " btn-collapsible" : ""}`}
      disabled={denied !== null || !(enabledByDocument && enabledByUi)}
      title={denied ?? `${command.label}${shortcut}`}
      aria-label={command.label}
      data-testid={testId ?? `command-${name}`}
      onClick={() => editor.commands.execute(name, editor)}
    >
      {icon ? <Icon name={icon} /> : null}
      {showLabel ? <span className="btn-label">{children ?? command.label}</span> : null}
    </button>
  );
}
