import { useEffect, useRef, type ReactElement } from "react";
import { useEditor, useUi } from "../editor/editor-context.js";
import { formatShortcut } from "../editor/shortcut.js";

const MENU_COMMANDS: Record<"node" | "edge" | "pane", readonly (string | "-")[]> = {
  node: [
    "copy",
    "duplicate",
    "-",
    "group-selection",
    "leave-group",
    "-",
    "toggle-prefer_nodes",
    "toggle-disallow_nodes",
    "toggle-sequential_only",
    "-",
    "delete",
  ],
  edge: ["flip-edge-kind", "-", "delete"],
  pane: ["add-mock-tool", "add-group", "paste", "-", "select-all", "auto-layout", "fit-view"],
};

/** The right-click menu: the same commands as the toolbar and keyboard, for what was clicked. */
export function ContextMenu(): ReactElement | null {
  const editor = useEditor();
  const menu = useUi((state) => state.contextMenu);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!menu) return;
    ref.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus();
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent && event.key !== "Escape") return;
      if (event.target instanceof Node && ref.current?.contains(event.target)) return;
      editor.ui.getState().set({ contextMenu: null });
    };
    window.addEventListener("pointerdown", close, true);
    window.addEventListener("keydown", close, true);
    window.addEventListener("blur", close);
    return () => {
      window.removeEventListener("pointerdown", close, true);
      window.removeEventListener("keydown", close, true);
      window.removeEventListener("blur", close);
    };
  }, [menu, editor]);
  if (!menu) return null;
  const items = MENU_COMMANDS[menu.target];
  const left = Math.min(menu.x, window.innerWidth - 240);
  const top = Math.min(menu.y, window.innerHeight - items.length * 32 - 16);
  return (
    <div ref={ref} className="context-menu" role="menu" style={{ left, top }} data-testid="context-menu">
      {items.map((name, index) => {
        if (name === "-")
          return <div key={`separator-${index}`} className="menu-separator" role="separator" />;
        const command = editor.commands.get(name);
        if (!command) return null;
        const enabled = editor.commands.isEnabled(name, editor);
        return (
          <button
            key={name}
            type="button"
            role="menuitem"
            className="menu-item"
            disabled={!enabled}
            data-testid={`menu-${name}`}
            onClick={() => {
              editor.ui.getState().set({ contextMenu: null });
              editor.commands.execute(name, editor);
            }}
          >
            <span>{command.label}</span>
            {command.shortcut ? <kbd>{formatShortcut(command.shortcut, editor.isMac)}</kbd> : null}
          </button>
        );
      })}
    </div>
  );
}
