import { useEffect } from "react";
import type { Editor } from "./editor-context.js";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Runs registry commands from the keyboard. While typing in a field only Mod+S (save) and Mod+K (the
 * command palette) are taken; the rest (Ctrl+Z included) stays with the field. Nothing runs while a
 * dialog is open.
 */
export function useKeyboardShortcuts(editor: Editor): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (editor.ui.getState().dialog) return;
      const command = editor.commands.findByKey(event, editor.isMac);
      if (!command) return;
      // Ctrl+C / Ctrl+V go through the browser's copy and paste events (canvas/use-clipboard-json.ts), which
      // carry the system clipboard; taking the key here would cancel them
      if (command.name === "copy" || command.name === "paste") return;
      if (isTyping(event.target) && command.name !== "save" && command.name !== "command-palette") return;
      if (!editor.commands.isEnabled(command.name, editor)) {
        // keep the browser from acting on our shortcuts (Ctrl+S saving the page) even when disabled
        if (event.ctrlKey || event.metaKey) event.preventDefault();
        return;
      }
      event.preventDefault();
      editor.commands.execute(command.name, editor);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [editor]);
}
