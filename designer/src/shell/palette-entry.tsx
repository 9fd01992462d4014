import type { DragEvent, ReactElement, ReactNode } from "react";
import { useEditor } from "../editor/editor-context.js";
import { addPaletteItem } from "../canvas/add-palette-item.js";
import { PALETTE_MIME, type PaletteItem } from "../canvas/palette-drop.js";
import { Icon, type IconName } from "../components/icon.js";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";

/** One palette entry: drag it onto the canvas, or click to add it in the middle of the view. */
export function PaletteEntry(props: {
  item: PaletteItem;
  icon: IconName;
  title: string;
  blurb: string;
  testId: string;
  badge?: ReactNode;
}): ReactElement {
  const editor = useEditor();
  const denied = useDenied(DESIGN_PERMISSION);
  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(PALETTE_MIME, JSON.stringify(props.item));
    event.dataTransfer.effectAllowed = "copy";
  };
  return (
    <button
      type="button"
      className="palette-entry"
      draggable={denied === null}
      disabled={denied !== null}
      onDragStart={onDragStart}
      onClick={() => addPaletteItem(editor, { item: props.item })}
      data-testid={props.testId}
      title={denied ?? `${props.blurb}\nDrag onto the canvas, or click to add it in the middle.`}
    >
      <span className="palette-icon">
        <Icon name={props.icon} />
      </span>
      <span className="palette-text">
        <span className="palette-title">
          {props.title}
          {props.badge}
        </span>
        <span className="palette-blurb">{props.blurb}</span>
      </span>
    </button>
  );
}
