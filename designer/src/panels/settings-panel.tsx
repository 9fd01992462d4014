import {
  getFieldBounds,
  getFieldDefaults,
  LlmConfig,
  PlannerOptions,
  SIDE_EFFECTS,
  TasksOptions,
} from "@waddle/protocol";
import type { ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { NumberField, SelectField, TextField, ToggleField } from "../components/fields.js";
import { Section } from "../components/section.js";
import { ApprovalLimitField } from "../inspector/approval-limit-field.js";
import { LlmConfigEditor } from "../inspector/llm-config-editor.js";
import { AnswerSection } from "./answer-section.js";
import type { LlmSlot } from "../model/spec-change.js";
import { StuckSection } from "./stuck-section.js";
import { GuardsSection } from "./guards-section.js";

const PLANNER_BOUNDS = getFieldBounds(PlannerOptions);
const PLANNER_DEFAULTS = getFieldDefaults(PlannerOptions);
const TASKS_BOUNDS = getFieldBounds(TasksOptions);
const TASKS_DEFAULTS = getFieldDefaults(TasksOptions);

type PlannerNumberKey =
  "maxIters" | "repairAttempts" | "maxConsecutiveArgFailures" | "maxParallelCap" | "toolTimeoutMs";
type TasksNumberKey = "maxConcurrent" | "maxPerRun" | "timeoutS";

/** Planner options and LLM settings. */
export function SettingsPanel(): ReactElement {
  const editor = useEditor();
  const spec = useDocument((state) => state.spec);
  const dispatch = editor.document.getState().dispatch;
  const { planner } = spec;
  const set = (patch: Partial<PlannerOptions>, key: string) =>
    dispatch({ type: "updatePlanner", patch }, { coalesceKey: `planner:${key}` });
  const setTasks = (patch: Partial<TasksOptions>, key: string) =>
    set({ tasks: { ...planner.tasks, ...patch } }, `tasks.${key}`);
  const setLlm = (slot: LlmSlot, value: LlmConfig | undefined) =>
    dispatch({ type: "setLlm", slot, value }, { coalesceKey: `llm:${slot}` });
  // a required number: the schema's bounds, and the schema's default when its box is cleared
  const plannerNumber = (key: PlannerNumberKey) => ({
    value: planner[key],
    ...PLANNER_BOUNDS[key],
    optional: false,
    onChange: (value: number | undefined) => set({ [key]: value ?? PLANNER_DEFAULTS[key] }, key),
  });
  const tasksNumber = (key: TasksNumberKey) => ({
    value: planner.tasks[key],
    ...TASKS_BOUNDS[key],
    optional: false,
    onChange: (value: number | undefined) => setTasks({ [key]: value ?? TASKS_DEFAULTS[key] }, key),
  });
  const optionalLlm = (slot: "summarizerLlm" | "routerLlm", label: string, hint: string) => {
    const value = spec[slot];
    return (
      <Section title={label} defaultOpen={value !== undefined}>
        <ToggleField
          label={`Use a ${label.toLowerCase()}`}
          checked={value !== undefined}
          hint={hint}
          onChange={(on) =>
            setLlm(slot, on ? LlmConfig.parse({ provider: "offline", model: "offline" }) : undefined)
          }
        />
        {value ? (
          <LlmConfigEditor
            value={value}
            onChange={(patch) => setLlm(slot, { ...value, ...patch } as LlmConfig)}
          />
        ) : null}
      </Section>
    );
  };
  return (
    <div className="panel-body" data-testid="settings-panel">
      <Section title="Model">
        <LlmConfigEditor
          value={spec.llm}
          onChange={(patch) => setLlm("llm", { ...spec.llm, ...patch } as LlmConfig)}
          testId="llm-settings"
        />
      </Section>
      {optionalLlm("summarizerLlm", "Summarizer model", "A cheaper model that compacts long histories.")}
      {optionalLlm("routerLlm", "Router model", "Picks reasoning effort and model when effort is “auto”.")}
      <Section title="Planner">
        <div className="field-grid">
          <NumberField label="Max iterations" {...plannerNumber("maxIters")} testId="planner-max-iters" />
          <NumberField
            label="Repair attempts"
            {...plannerNumber("repairAttempts")}
            hint="Retries of malformed model output."
          />
          <NumberField label="Max arg failures in a row" {...plannerNumber("maxConsecutiveArgFailures")} />
          <NumberField
            label="Parallel cap"
            {...plannerNumber("maxParallelCap")}
            hint="Absolute limit on concurrent branches."
          />
          <NumberField label="Tool timeout (ms)" {...plannerNumber("toolTimeoutMs")} />
          <SelectField
            label="Action format"
            value={planner.actionFormat}
            options={[
              { value: "auto", label: "Auto" },
              { value: "unified", label: "Unified" },
              { value: "legacy", label: "Legacy" },
            ]}
            onChange={(actionFormat) => set({ actionFormat }, "actionFormat")}
          />
        </div>
        <ToggleField
          label="Arg fill"
          checked={planner.argFill}
          hint="Ask the model for just the missing arguments instead of failing."
          onChange={(argFill) => set({ argFill }, "argFill")}
        />
        <div className="field">
          <span className="field-label">Always ask for approval before</span>
          <div className="checkbox-row">
            {SIDE_EFFECTS.map((sideEffect) => (
              <label key={sideEffect} className={`check-chip se-${sideEffect}`}>
                <input
                  type="checkbox"
                  checked={planner.approvalSideEffects.includes(sideEffect)}
                  onChange={(event) =>
                    set(
                      {
                        approvalSideEffects: event.target.checked
                          ? [...planner.approvalSideEffects, sideEffect]
                          : planner.approvalSideEffects.filter((item) => item !== sideEffect),
                      },
                      "approval",
                    )
                  }
                />
                {sideEffect}
              </label>
            ))}
          </div>
        </div>
        <div className="field">
          <span className="field-label">Time limit on waiting for a person</span>
          <ApprovalLimitField
            value={spec.approval}
            testId="agent-approval-limit"
            offHint="Off: a pause waits until a person decides, unless the paused tool sets its own limit."
            onChange={(approval) =>
              dispatch({ type: "updateAgent", patch: { approval } }, { coalesceKey: "agent:approval" })
            }
          />
        </div>
        <TextField
          label="Extra system prompt"
          multiline
          rows={4}
          value={planner.systemPromptExtra}
          onChange={(systemPromptExtra) => set({ systemPromptExtra }, "systemPromptExtra")}
          hint="Appended to the planner's system prompt (system_prompt_extra)."
          testId="system-prompt-extra"
        />
      </Section>
      <AnswerSection />
      <StuckSection />
      <GuardsSection />
      <Section title="Auto-seq">
        <ToggleField
          label="Enabled"
          checked={planner.autoSeq.enabled}
          hint="Detect when exactly one tool fits the last output."
          testId="planner-auto-seq-enabled"
          onChange={(enabled) => set({ autoSeq: { ...planner.autoSeq, enabled } }, "autoSeq")}
        />
        <ToggleField
          label="Execute"
          checked={planner.autoSeq.execute}
          hint="Run the detected tool without asking the model (tools must also allow it)."
          onChange={(execute) => set({ autoSeq: { ...planner.autoSeq, execute } }, "autoSeq")}
        />
        <ToggleField
          label="Read-only tools only"
          checked={planner.autoSeq.readOnlyOnly}
          hint="Only pure and read tools may follow automatically."
          onChange={(readOnlyOnly) => set({ autoSeq: { ...planner.autoSeq, readOnlyOnly } }, "autoSeq")}
        />
      </Section>
      <Section title="Todos and tasks" defaultOpen={false}>
        <ToggleField
          label="Todos"
          checked={planner.todos.enabled}
          hint="Offer the write_todos planning tool."
          onChange={(enabled) => set({ todos: { enabled } }, "todos")}
        />
        <ToggleField
          label="Background tasks"
          checked={planner.tasks.enabled}
          hint="Allow task.subagent and task.tool."
          onChange={(enabled) => setTasks({ enabled }, "enabled")}
        />
        {planner.tasks.enabled ? (
          <div className="field-grid">
            <SelectField
              label="Confirm spawns"
              value={
                planner.tasks.spawnRequiresConfirmation === undefined
                  ? "ask"
                  : planner.tasks.spawnRequiresConfirmation
                    ? "yes"
                    : "no"
              }
              options={[
                { value: "ask", label: "Model asks the user" },
                { value: "yes", label: "Always" },
                { value: "no", label: "Never" },
              ]}
              onChange={(value) =>
                setTasks(
                  { spawnRequiresConfirmation: value === "ask" ? undefined : value === "yes" },
                  "confirm",
                )
              }
            />
            <NumberField label="Max concurrent" {...tasksNumber("maxConcurrent")} />
            <NumberField label="Max per run" {...tasksNumber("maxPerRun")} />
            <NumberField label="Timeout (s)" {...tasksNumber("timeoutS")} />
            <SelectField
              label="Merge strategy"
              value={planner.tasks.defaultMergeStrategy}
              options={[
                { value: "APPEND", label: "Append" },
                { value: "REPLACE", label: "Replace" },
                { value: "HUMAN_GATED", label: "Human-gated" },
              ]}
              onChange={(defaultMergeStrategy) => setTasks({ defaultMergeStrategy }, "merge")}
            />
          </div>
        ) : null}
      </Section>
    </div>
  );
}
