import { LlmConfig, SIDE_EFFECTS, type PlannerOptions, type TasksOptions } from "@waddle/protocol";
import type { ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { NumberField, SelectField, TextField, ToggleField } from "../components/fields.js";
import { Section } from "../components/section.js";
import { LlmConfigEditor } from "../inspector/llm-config-editor.js";
import type { LlmSlot } from "../model/spec-change.js";

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
          <NumberField
            label="Max iterations"
            value={planner.maxIters}
            integer
            min={1}
            max={1000}
            optional={false}
            onChange={(maxIters) => set({ maxIters: maxIters ?? 8 }, "maxIters")}
            testId="planner-max-iters"
          />
          <NumberField
            label="Repair attempts"
            value={planner.repairAttempts}
            integer
            min={0}
            max={10}
            optional={false}
            onChange={(repairAttempts) => set({ repairAttempts: repairAttempts ?? 0 }, "repairAttempts")}
            hint="Retries of malformed model output."
          />
          <NumberField
            label="Max arg failures in a row"
            value={planner.maxConsecutiveArgFailures}
            integer
            min={1}
            max={20}
            optional={false}
            onChange={(value) => set({ maxConsecutiveArgFailures: value ?? 3 }, "maxConsecutiveArgFailures")}
          />
          <NumberField
            label="Parallel cap"
            value={planner.maxParallelCap}
            integer
            min={1}
            max={256}
            optional={false}
            onChange={(maxParallelCap) => set({ maxParallelCap: maxParallelCap ?? 16 }, "maxParallelCap")}
            hint="Absolute limit on concurrent branches."
          />
          <NumberField
            label="Tool timeout (ms)"
            value={planner.toolTimeoutMs}
            integer
            min={1}
            max={3_600_000}
            optional={false}
            onChange={(toolTimeoutMs) => set({ toolTimeoutMs: toolTimeoutMs ?? 30_000 }, "toolTimeoutMs")}
          />
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
            <NumberField
              label="Max concurrent"
              value={planner.tasks.maxConcurrent}
              integer
              min={1}
              max={64}
              optional={false}
              onChange={(maxConcurrent) => setTasks({ maxConcurrent: maxConcurrent ?? 4 }, "maxConcurrent")}
            />
            <NumberField
              label="Max per run"
              value={planner.tasks.maxPerRun}
              integer
              min={1}
              max={256}
              optional={false}
              onChange={(maxPerRun) => setTasks({ maxPerRun: maxPerRun ?? 16 }, "maxPerRun")}
            />
            <NumberField
              label="Timeout (s)"
              value={planner.tasks.timeoutS}
              min={1}
              max={86_400}
              optional={false}
              onChange={(timeoutS) => setTasks({ timeoutS: timeoutS ?? 300 }, "timeoutS")}
            />
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
