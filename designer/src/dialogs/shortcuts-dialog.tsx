import type { ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { formatShortcut } from "../editor/shortcut.js";
import { Dialog } from "../components/dialog.js";

/** Every command by section, with its keys; clicking one runs it, like the toolbar would. */
export function ShortcutsDialog({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const sections = new Map<string, ReturnType<typeof editor.commands.list>[number][]>();
  for (const command of editor.commands.list()) {
    const section = command.section ?? "Other";
    sections.set(section, [...(sections.get(section) ?? []), command]);
  }
  return (
    <Dialog title="Keyboard shortcuts" size="large" testId="shortcuts-dialog" onClose={close}>
      <div className="shortcut-sections">
        {[...sections].map(([section, commands]) => (
          <section key={section} className="shortcut-section">
            <h3>{section}</h3>
            <ul>
              {commands.map((command) => (
                <li key={command.name}>
                  <button
                    type="button"
                    className="shortcut-row"
                    disabled={!editor.commands.isEnabled(command.name, editor)}
                    data-testid={`shortcut-${command.name}`}
                    onClick={() => {
                      close();
                      editor.commands.execute(command.name, editor);
                    }}
                  >
                    <span>{command.label}</span>
                    {command.shortcut ? <kbd>{formatShortcut(command.shortcut, editor.isMac)}</kbd> : null}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <p className="field-hint">
        Shift+drag selects with a box; {editor.isMac ? "⌘" : "Ctrl"}+click adds to the selection. Shortcuts
        pause while you type in a field.
      </p>
    </Dialog>
  );
}
