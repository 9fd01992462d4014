import type { ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { TextField } from "../components/fields.js";
import { Icon } from "../components/icon.js";
import { Section } from "../components/section.js";
import { isSameJson, useDraftText } from "../components/use-draft-text.js";
import { TriggersEntry } from "../trigger-views/triggers-entry.js";

/** What the inspector shows with nothing selected: the agent itself, and how to go on. */
export function AgentOverview(): ReactElement {
  const editor = useEditor();
  const spec = useDocument((state) => state.spec);
  const saved = useDocument((state) => state.agentId !== null);
  const update = (
    patch: { id?: string; name?: string; description?: string; sampleQueries?: string[] },
    key: string,
  ) => editor.document.getState().dispatch({ type: "updateAgent", patch }, { coalesceKey: `agent:${key}` });
  const queries = useDraftText<readonly string[]>({
    value: spec.sampleQueries,
    format: (value) => value.join("\n"),
    parse: (text) => ({
      ok: true,
      value: text
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
    }),
    isEqual: isSameJson,
    onChange: (value) => update({ sampleQueries: [...value] }, "sampleQueries"),
  });
  return (
    <div className="inspector-body" data-testid="agent-overview">
      <div className="inspector-title">
        <Icon name="robot" />
        <h2>{spec.name}</h2>
      </div>
      <Section title="Agent">
        <TextField
          label="Name"
          value={spec.name}
          onChange={(name) => update({ name }, "name")}
          testId="agent-name-input"
        />
        <TextField
          label="Id"
          value={spec.id}
          onChange={(id) => !saved && update({ id }, "id")}
          readOnly={saved}
          monospace
          testId="agent-id-input"
          hint={
            saved
              ? "Fixed once saved: it is the agent's address (/api/agents/…)."
              : "Lower-case letters, digits, - and _. Fixed after the first save."
          }
        />
        <TextField
          label="Description"
          multiline
          rows={3}
          value={spec.description}
          onChange={(description) => update({ description }, "description")}
        />
        <TextField
          label="Sample queries"
          multiline
          rows={3}
          value={queries.text}
          onChange={queries.setText}
          hint="One per line; offered when you run the agent."
        />
      </Section>
      <TriggersEntry />
      <Section title="Getting around">
        <ul className="tips">
          <li>Select a tool, edge or group on the canvas to edit it here.</li>
          <li>Drag from a tool's right handle to another tool to connect them.</li>
          <li>Drag tools into a parallel group's frame; drag them out to leave it.</li>
          <li>
            Press <kbd>?</kbd> for every keyboard shortcut.
          </li>
        </ul>
      </Section>
    </div>
  );
}
