import type { ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { Icon } from "./icon.js";

/** Copy: puts `text` on the clipboard and says so in a toast (or that the browser refused). */
export function CopyButton(props: { text: string; what: string; testId: string }): ReactElement {
  const editor = useEditor();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      editor.ui.getState().notify("success", `Copied the ${props.what}.`);
    } catch {
      editor.ui
        .getState()
        .notify("error", "The browser refused the clipboard: select the text and copy it by hand.");
    }
  };
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid={props.testId}
      aria-label={`Copy the ${props.what}`}
      onClick={() => void copy()}
    >
      <Icon name="copy" size={14} />
      Copy
    </button>
  );
}
