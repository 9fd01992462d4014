import { TOOL_NAME_PATTERN } from "@waddle/protocol";
import { useState, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { FieldFrame } from "../components/fields.js";

/**
 * The tool's name, committed on Enter or when the field loses focus (a rename rewrites every reference,
 * so it is not done per keystroke). Empty and taken names are refused here; other invalid names are
 * committed so that the issue shows on the node.
 */
export function ToolNameField({ name }: { name: string }): ReactElement {
  const editor = useEditor();
  const [draft, setDraft] = useState({ text: name, source: name });
  if (draft.source !== name) setDraft({ text: name, source: name });
  const text = draft.source === name ? draft.text : name;
  const trimmed = text.trim();
  const taken =
    trimmed !== name && editor.document.getState().spec.tools.some((tool) => tool.name === trimmed);
  const error =
    trimmed === "" ? "A tool needs a name." : taken ? `Another tool is already named “${trimmed}”.` : null;
  const warning =
    !error && !TOOL_NAME_PATTERN.test(trimmed)
      ? "Use letters, digits and _ only, not starting with a digit: this is what the LLM writes."
      : null;
  const commit = () => {
    if (error) {
      setDraft({ text: name, source: name });
      return;
    }
    if (trimmed !== name)
      editor.document.getState().dispatch({ type: "renameTool", from: name, to: trimmed });
  };
  return (
    <FieldFrame
      label="Name"
      hint={warning ?? "What the planner writes in next_node. Press Enter to rename."}
      error={error}
    >
      {(id) => (
        <input
          id={id}
          className="input mono"
          value={text}
          data-testid="tool-name-input"
          onChange={(event) => setDraft({ text: event.target.value, source: name })}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === "Enter") commit();
            if (event.key === "Escape") setDraft({ text: name, source: name });
          }}
        />
      )}
    </FieldFrame>
  );
}
