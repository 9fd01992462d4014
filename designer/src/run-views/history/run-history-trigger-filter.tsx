import type { Trigger } from "@waddle/protocol";
import { useEffect, useState, type ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import { getTriggerTitle } from "../../triggers/describe-trigger.js";

/**
 * The agent's triggers, for History's filter: read when the agent opens, and again when a run arrives from
 * a trigger the list does not know (one made in the Triggers panel meanwhile).
 */
export function useAgentTriggers(agentId: string | null): readonly Trigger[] {
  const editor = useEditor();
  const [triggers, setTriggers] = useState<readonly Trigger[]>([]);
  useEffect(() => {
    setTriggers([]);
    if (agentId === null) return;
    let live = true;
    let known = new Set<string>();
    const read = () =>
      editor.api.listTriggers(agentId).then(
        (list) => {
          if (!live) return;
          known = new Set(list.map((trigger) => trigger.id));
          setTriggers(list);
        },
        () => undefined,
      );
    void read();
    const stop = editor.connection.agents.watch(agentId, "run_updated", {
      onMessage(run) {
        if (run.trigger && !known.has(run.trigger.id)) void read();
      },
    });
    return () => {
      live = false;
      stop();
    };
  }, [editor, agentId]);
  return triggers;
}

/** Only the runs one trigger fired (asked of the server: `?trigger=`, and kept under live updates). */
export function TriggerFilter(props: {
  triggers: readonly Trigger[];
  value: string | null;
  onChange(triggerId: string | null): void;
}): ReactElement | null {
  const editor = useEditor();
  if (props.triggers.length === 0 && props.value === null) return null;
  return (
    <>
      <label className="run-history-rating-filter" title="Runs a schedule or webhook trigger fired">
        <span className="runs-visually-hidden">Trigger</span>
        <select
          className="input"
          value={props.value ?? ""}
          data-testid="run-history-trigger-filter"
          onChange={(event) => props.onChange(event.currentTarget.value || null)}
        >
          <option value="">Any start</option>
          {props.triggers.map((trigger) => (
            <option key={trigger.id} value={trigger.id}>
              {trigger.name
                ? `${trigger.kind === "schedule" ? "Schedule" : "Webhook"}: ${trigger.name}`
                : getTriggerTitle(trigger)}
              {trigger.kind === "schedule" ? ` (${trigger.cron})` : ""}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        data-testid="history-triggers-open"
        title="The agent's schedules and webhooks, and their last fires"
        onClick={() => editor.commands.execute("triggers", editor)}
      >
        Triggers…
      </button>
    </>
  );
}
