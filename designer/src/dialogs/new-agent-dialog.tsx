import { SLUG_PATTERN } from "@waddle/protocol";
import { useState, type ReactElement } from "react";
import { useServer } from "../editor/editor-context.js";
import { Dialog, DialogActions } from "../components/dialog.js";
import { createUniqueName, toSlug } from "../graph/create-unique-name.js";
import type { NewAgentChoice } from "../store/ui-store.js";
import { AGENT_TEMPLATE_IDS, AGENT_TEMPLATES, type AgentTemplateId } from "../templates/agent-templates.js";

/** Name, id (derived from the name until edited) and a starting template. */
export function NewAgentDialog({ close }: { close: (result: NewAgentChoice | null) => void }): ReactElement {
  const agents = useServer((state) => state.agents);
  const taken = agents.map((agent) => agent.id);
  const [name, setName] = useState("My agent");
  const [customId, setCustomId] = useState<string | null>(null);
  const [template, setTemplate] = useState<AgentTemplateId>("blank");
  const [copyOf, setCopyOf] = useState("");
  const id = customId ?? createUniqueName({ base: toSlug(name), taken, separator: "-" });
  const idError = !SLUG_PATTERN.test(id)
    ? "Use lower-case letters, digits, - and _ (starting with a letter or digit)."
    : taken.includes(id)
      ? "An agent with this id exists."
      : null;
  const canCreate = name.trim() !== "" && idError === null;
  const submit = () => canCreate && close({ name: name.trim(), id, template, ...(copyOf ? { copyOf } : {}) });
  return (
    <Dialog
      title="New agent"
      testId="new-agent-dialog"
      onClose={() => close(null)}
      footer={
        <DialogActions
          onCancel={() => close(null)}
          onAccept={submit}
          acceptLabel="Create"
          acceptTestId="new-agent-create"
          disabled={!canCreate}
        />
      }
    >
      <label className="field">
        <span className="field-label">Name</span>
        <input
          className="input"
          autoFocus
          value={name}
          data-testid="new-agent-name"
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => event.key === "Enter" && submit()}
        />
      </label>
      <label className={`field${idError ? " field-invalid" : ""}`}>
        <span className="field-label">Id</span>
        <input
          className="input mono"
          value={id}
          data-testid="new-agent-id"
          onChange={(event) => setCustomId(event.target.value)}
        />
        <span className={idError ? "field-error" : "field-hint"}>
          {idError ?? "Its address: /api/agents/" + id}
        </span>
      </label>
      <div className="field">
        <span className="field-label">Start from</span>
        <div className="template-grid" role="radiogroup" aria-label="Template">
          {AGENT_TEMPLATE_IDS.map((templateId) => (
            <button
              key={templateId}
              type="button"
              role="radio"
              aria-checked={!copyOf && template === templateId}
              className={`template-card${!copyOf && template === templateId ? " is-active" : ""}`}
              data-testid={`template-${templateId}`}
              onClick={() => {
                setTemplate(templateId);
                setCopyOf("");
              }}
            >
              <span className="template-title">{AGENT_TEMPLATES[templateId].label}</span>
              <span className="template-blurb">{AGENT_TEMPLATES[templateId].blurb}</span>
            </button>
          ))}
        </div>
        <label className="field">
          <span className="field-hint">…or copy a saved agent (the server's examples are there too):</span>
          <select
            className="input"
            value={copyOf}
            data-testid="new-agent-copy-of"
            onChange={(event) => setCopyOf(event.target.value)}
          >
            <option value="">— none —</option>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name} ({agent.id})
              </option>
            ))}
          </select>
        </label>
      </div>
    </Dialog>
  );
}
