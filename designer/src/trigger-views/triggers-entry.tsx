import type { ReactElement } from "react";
import { Icon } from "../components/icon.js";
import { Section } from "../components/section.js";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { useAgentTriggers } from "../run-views/history/run-history-trigger-filter.js";
import { getTriggersSummary } from "../triggers/describe-trigger.js";

/**
 * The agent's **Triggers** in the inspector's overview (the header has no room left at 1440 px for the
 * agent's name): how many, and the button that opens the panel. The command palette opens it too.
 */
export function TriggersEntry(): ReactElement {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId);
  const triggers = useAgentTriggers(agentId);
  return (
    <Section title="Triggers" summary={getTriggersSummary(triggers)} testId="agent-triggers">
      <p className="field-hint">
        {agentId === null
          ? "Save the agent, then let it start on its own: on a schedule, or when a webhook arrives."
          : "Start runs on their own: on a schedule (cron), or when a webhook request arrives."}
      </p>
      <button
        type="button"
        className="btn btn-small"
        data-testid="triggers-open"
        disabled={agentId === null}
        onClick={() => editor.commands.execute("triggers", editor)}
      >
        <Icon name="clock" size={14} />
        Triggers…
      </button>
    </Section>
  );
}
