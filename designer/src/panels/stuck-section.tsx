import { getFieldBounds, StuckOptions, type StuckAction } from "@waddle/protocol";
import type { ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { NumberField, SelectField, ToggleField } from "../components/fields.js";
import { Section } from "../components/section.js";

const STUCK_BOUNDS = getFieldBounds(StuckOptions);

const ACTION_HINTS: Record<StuckAction, string> = {
  nudge: "Tell the model once what it repeats; a second loop finishes the run with the best answer so far.",
  pause: "Pause the run for a person (the inbox shows it): approve lets it go on, reject stops it.",
  finish: "End the run with reason stuck and the best answer so far.",
};

/** Settings → Stuck runs: the planner's stuck-run breaker (`planner.stuck`). */
export function StuckSection(): ReactElement {
  const editor = useEditor();
  const stuck = useDocument((state) => state.spec.planner.stuck);
  const set = (patch: Partial<StuckOptions>, key: string) =>
    editor.document
      .getState()
      .dispatch(
        { type: "updatePlanner", patch: { stuck: { ...stuck, ...patch } } },
        { coalesceKey: `planner:stuck.${key}` },
      );
  return (
    <Section
      title="Stuck runs"
      summary={stuck.enabled ? `${stuck.action} after ${stuck.repeats}` : "off"}
      defaultOpen={false}
      testId="stuck-section"
    >
      <ToggleField
        label="Stop runs going in circles"
        checked={stuck.enabled}
        hint="Watch for the same call repeated, two calls taking turns, the same error again, and empty results in a row."
        testId="planner-stuck-enabled"
        onChange={(enabled) => set({ enabled }, "enabled")}
      />
      {stuck.enabled ? (
        <div className="field-grid">
          <NumberField
            label="Repeats"
            value={stuck.repeats}
            {...STUCK_BOUNDS.repeats}
            optional={false}
            hint="How many times before it counts."
            testId="planner-stuck-repeats"
            onChange={(repeats) => set({ repeats: repeats ?? 3 }, "repeats")}
          />
          <SelectField<StuckAction>
            label="Then"
            value={stuck.action}
            options={[
              { value: "nudge", label: "Nudge the model" },
              { value: "pause", label: "Pause for a person" },
              { value: "finish", label: "Finish the run" },
            ]}
            hint={ACTION_HINTS[stuck.action]}
            testId="planner-stuck-action"
            onChange={(action) => set({ action }, "action")}
          />
        </div>
      ) : null}
    </Section>
  );
}
