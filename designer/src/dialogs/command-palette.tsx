import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { formatShortcut } from "../editor/shortcut.js";
import { getPaletteMatches } from "../commands/get-palette-matches.js";
import { Icon } from "../components/icon.js";
import { useModal } from "../components/use-modal.js";
import { getCommandPaletteEntries } from "./get-command-palette-entries.js";

/**
 * Ctrl/Cmd+K: one box that finds a node on the canvas (selects and centres it), a tool to add, an agent to
 * open or a command to run. Arrows move, Enter chooses, Escape closes.
 */
export function CommandPalette({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const ref = useRef<HTMLDialogElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const listId = useId();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  // the entries as the palette opened: the document does not change while it is open
  const entries = useMemo(() => getCommandPaletteEntries(editor), [editor]);
  const matches = useMemo(() => getPaletteMatches(entries, { query }), [entries, query]);
  const current = Math.min(active, Math.max(matches.length - 1, 0));
  useModal(ref);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView({ block: "nearest" });
  }, [current]);
  const choose = (index: number) => {
    const entry = matches[index];
    if (!entry) return;
    close();
    entry.run();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + 8,
      PageUp: current - 8,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      setActive(Math.min(Math.max(next, 0), Math.max(matches.length - 1, 0)));
      event.preventDefault();
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(current);
    }
  };
  return (
    <dialog
      ref={ref}
      className="dialog command-palette"
      aria-label="Command palette"
      data-testid="command-palette"
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onMouseDown={(event) => {
        if (event.target === ref.current) close();
      }}
    >
      <div className="dialog-box">
        <label className="command-palette-search">
          <Icon name="search" />
          <input
            autoFocus
            role="combobox"
            aria-expanded
            aria-controls={listId}
            aria-activedescendant={matches[current] ? `${listId}-${current}` : undefined}
            aria-label="Search nodes, tools, agents and commands"
            placeholder="Search nodes, tools, agents and commands…"
            data-testid="command-palette-input"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
          <kbd>Esc</kbd>
        </label>
        <ul className="command-palette-list" role="listbox" id={listId} ref={listRef}>
          {matches.map((entry, index) => (
            <li
              key={entry.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === current}
              className={`command-palette-item${index === current ? " is-active" : ""}`}
              data-testid="command-palette-item"
              data-id={entry.id}
              data-index={index}
              onMouseMove={() => setActive(index)}
              onClick={() => choose(index)}
            >
              <span className="command-palette-group">{entry.group.replace(/s$/, "")}</span>
              <span className="command-palette-label">{entry.label}</span>
              {entry.detail ? <span className="command-palette-detail">{entry.detail}</span> : null}
              {entry.shortcut ? <kbd>{formatShortcut(entry.shortcut, editor.isMac)}</kbd> : null}
            </li>
          ))}
          {matches.length === 0 ? (
            <li className="command-palette-empty" role="presentation">
              Nothing matches “{query}”.
            </li>
          ) : null}
        </ul>
        <p className="command-palette-foot">
          <kbd>↑</kbd> <kbd>↓</kbd> move · <kbd>Enter</kbd> choose · <kbd>Esc</kbd> close
        </p>
      </div>
    </dialog>
  );
}
