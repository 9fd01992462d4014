import { useMemo, useState, type DragEvent, type ReactElement, type ReactNode } from "react";
import { useEditor, useSession } from "../app/editor-context.js";
import { addPaletteItem } from "../canvas/add-palette-item.js";
import { PALETTE_MIME, type PaletteItem } from "../canvas/palette-drop.js";
import { KIND_ICONS } from "../canvas/tool-node.js";
import { NEW_TOOL_KINDS, TOOL_KIND_INFO } from "../templates/create-new-tool.js";
import { Icon, type IconName } from "./icon.js";
import { SideEffectBadge } from "./side-effect-badge.js";

function PaletteEntry(props: {
  item: PaletteItem;
  icon: IconName;
  title: string;
  blurb: string;
  testId: string;
  badge?: ReactNode;
}): ReactElement {
  const editor = useEditor();
  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(PALETTE_MIME, JSON.stringify(props.item));
    event.dataTransfer.effectAllowed = "copy";
  };
  return (
    <button
      type="button"
      className="palette-entry"
      draggable
      onDragStart={onDragStart}
      onClick={() => addPaletteItem(editor, { item: props.item })}
      data-testid={props.testId}
      title={`${props.blurb}\nDrag onto the canvas, or click to add it in the middle.`}
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

/** New declared tools, a parallel group frame, and the server's registered module tools. */
export function Palette(): ReactElement {
  const tools = useSession((state) => state.tools);
  const [query, setQuery] = useState("");
  const visibleTools = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return needle === ""
      ? tools
      : tools.filter((tool) =>
          `${tool.name} ${tool.desc} ${tool.tags.join(" ")}`.toLowerCase().includes(needle),
        );
  }, [tools, query]);
  return (
    <div className="sidebar-section palette" data-testid="palette">
      <h3 className="sidebar-heading">New tool</h3>
      <div className="palette-grid">
        {NEW_TOOL_KINDS.map((kind) => (
          <PaletteEntry
            key={kind}
            item={{ type: "new-tool", kind }}
            icon={KIND_ICONS[kind]}
            title={TOOL_KIND_INFO[kind].label}
            blurb={TOOL_KIND_INFO[kind].blurb}
            testId={`palette-new-${kind}`}
          />
        ))}
      </div>
      <PaletteEntry
        item={{ type: "group" }}
        icon="group"
        title="Parallel group"
        blurb="A frame: tools inside run in parallel, then a join tool merges them."
        testId="palette-group"
      />
      <h3 className="sidebar-heading">Registered tools</h3>
      {tools.length > 6 ? (
        <div className="search">
          <Icon name="search" size={14} />
          <input
            className="input"
            type="search"
            placeholder="Filter tools"
            aria-label="Filter registered tools"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
      ) : null}
      {tools.length === 0 ? (
        <p className="empty-note">
          No module tools are registered on this server. Tools written with defineTool and registered with the
          server appear here.
        </p>
      ) : (
        <div className="palette-list">
          {visibleTools.map((tool) => (
            <PaletteEntry
              key={tool.name}
              item={{ type: "module-tool", name: tool.name }}
              icon="cube"
              title={tool.name}
              blurb={tool.desc || "No description"}
              testId={`palette-module-${tool.name}`}
              badge={<SideEffectBadge sideEffect={tool.sideEffects} />}
            />
          ))}
        </div>
      )}
    </div>
  );
}
