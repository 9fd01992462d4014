import { useRef, type KeyboardEvent, type PointerEvent, type ReactElement, type ReactNode } from "react";
import { useEditor } from "../editor/editor-context.js";
import { formatShortcut } from "../editor/shortcut.js";
import { PANEL_COMMANDS } from "../commands/view-commands.js";
import { Icon } from "../components/icon.js";
import { PANEL_LIMITS, type PanelSide } from "../store/view-prefs-store.js";
import { getViewPrefsStore, useViewPrefs } from "../editor/use-view-prefs.js";

const KEY_STEP = 16;

/** The drag handle on a panel's inner edge: pointer drag, or arrows / Home / End / Enter when focused. */
function ResizeHandle(props: { side: PanelSide; label: string }): ReactElement {
  const { side, label } = props;
  const editor = useEditor();
  const width = useViewPrefs((state) => state[side].width);
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);
  const setWidth = (next: number) => getViewPrefsStore(editor).getState().setPanel(side, { width: next });
  const sign = side === "left" ? 1 : -1;
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setWidth(drag.current.startWidth + sign * (event.clientX - drag.current.startX));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? KEY_STEP * 4 : KEY_STEP;
    const { min, max } = PANEL_LIMITS[side];
    const moves: Record<string, number> = {
      ArrowLeft: width - sign * step,
      ArrowRight: width + sign * step,
      Home: min,
      End: max,
    };
    const next = moves[event.key];
    if (next !== undefined) setWidth(next);
    else if (event.key === "Enter") getViewPrefsStore(editor).getState().togglePanel(side);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  return (
    <div
      className={`panel-resize panel-resize-${side}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize the ${label} panel (arrow keys; Enter hides it)`}
      aria-valuenow={width}
      aria-valuemin={PANEL_LIMITS[side].min}
      aria-valuemax={PANEL_LIMITS[side].max}
      tabIndex={0}
      data-testid={`panel-${side}-resize`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      onDoubleClick={() => setWidth(PANEL_LIMITS[side].initial)}
    />
  );
}

/**
 * A side column that can be resized (drag its inner edge) and collapsed to a rail (its button or the
 * shortcut); the width and the collapsed state outlive a reload.
 */
export function SidePanel(props: { side: PanelSide; label: string; children: ReactNode }): ReactElement {
  const { side, label } = props;
  const name = label.toLowerCase();
  const editor = useEditor();
  const collapsed = useViewPrefs((state) => state[side].collapsed);
  const keys = formatShortcut(PANEL_COMMANDS[side].shortcut, editor.isMac);
  const toggle = () => editor.commands.execute(PANEL_COMMANDS[side].name, editor);
  const button = (
    <button
      type="button"
      className="icon-btn panel-toggle"
      data-testid={`panel-${side}-toggle`}
      aria-expanded={!collapsed}
      aria-label={`${collapsed ? "Show" : "Hide"} the ${name} panel`}
      title={`${collapsed ? "Show" : "Hide"} the ${name} panel (${keys})`}
      onClick={toggle}
    >
      <Icon name="panel" size={15} />
    </button>
  );
  if (collapsed) {
    return (
      <div className={`panel-rail panel-rail-${side}`} data-testid={`panel-${side}-rail`}>
        {button}
        <button type="button" className="panel-rail-label" onClick={toggle} tabIndex={-1}>
          {label}
        </button>
      </div>
    );
  }
  return (
    <div className={`side-panel side-panel-${side}`} data-testid={`panel-${side}`}>
      {props.children}
      {button}
      <ResizeHandle side={side} label={name} />
    </div>
  );
}
