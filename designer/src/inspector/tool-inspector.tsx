import { getFieldBounds, getFieldDefaults, RetryPolicy, ToolSpec, type JsonSchema } from "@waddle/protocol";
import { useCallback, type ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { JsonField, ListField, NumberField, TextField, ToggleField } from "../components/fields.js";
import { Icon } from "../components/icon.js";
import { Section } from "../components/section.js";
import { useDenied } from "../store/me-store.js";
import type { ToolHintList } from "../model/spec-change.js";
import { formatApprovalLimit } from "../model/approval-limit.js";
import { ApprovalLimitField } from "./approval-limit-field.js";
import { ImplEditor } from "./impl-editor.js";
import { SchemaEditor } from "./schema-editor.js";
import { SideEffectPicker } from "./side-effect-picker.js";
import { ToolNameField } from "./tool-name-field.js";

/** "1 field", "3 fields": the summary of an args or out schema section. */
function getFieldCount(schema: JsonSchema): string {
  const count = Object.keys((schema.properties as object | undefined) ?? {}).length;
  return `${count} field${count === 1 ? "" : "s"}`;
}

const TOOL_BOUNDS = getFieldBounds(ToolSpec);
const RETRY_BOUNDS = getFieldBounds(RetryPolicy);
const RETRY_DEFAULTS = getFieldDefaults(RetryPolicy);

const HINT_TOGGLES: readonly { list: ToolHintList; label: string; hint: string }[] = [
  { list: "prefer_nodes", label: "Prefer", hint: "The planner is told to favour this tool." },
  { list: "disallow_nodes", label: "Disallow", hint: "The planner may never call it (enforced in code)." },
  { list: "sequential_only", label: "Sequential only", hint: "Never runs as a parallel branch." },
];

/** Every field of the selected tool. */
export function ToolInspector({ tool }: { tool: ToolSpec }): ReactElement {
  const editor = useEditor();
  const testDenied = useDenied("tools:test");
  const hints = useDocument((state) => state.spec.hints);
  const plannerTimeoutMs = useDocument((state) => state.spec.planner.toolTimeoutMs);
  const agentApproval = useDocument((state) => state.spec.approval);
  const update = useCallback(
    (patch: Partial<ToolSpec>, key: string) =>
      editor.document
        .getState()
        .dispatch(
          { type: "updateTool", name: tool.name, patch },
          { coalesceKey: `tool:${tool.name}:${key}` },
        ),
    [editor, tool.name],
  );
  const setArgs = useCallback(
    (argsSchema: ToolSpec["argsSchema"]) => update({ argsSchema }, "argsSchema"),
    [update],
  );
  const setOut = useCallback(
    (outSchema: ToolSpec["outSchema"]) => update({ outSchema }, "outSchema"),
    [update],
  );
  // a retry number: the schema's bounds, and the schema's default when its box is cleared
  const retryNumber = (retry: RetryPolicy, key: keyof RetryPolicy) => ({
    value: retry[key],
    ...RETRY_BOUNDS[key],
    optional: false,
    onChange: (value: number | undefined) =>
      update({ retry: { ...retry, [key]: value ?? RETRY_DEFAULTS[key] } }, "retry"),
  });
  return (
    <div className="inspector-body" data-testid="tool-inspector">
      <div className="inspector-title">
        <Icon name="tool" />
        <h2>{tool.name}</h2>
        <button
          type="button"
          className="btn btn-small inspector-title-action"
          data-testid="tool-test-button"
          disabled={testDenied !== null}
          title={testDenied ?? "Call this tool once with args you give, through the server"}
          onClick={() => void editor.ui.getState().openDialog("toolTest", { tool: tool.name })}
        >
          <Icon name="bolt" size={14} />
          Run tool
        </button>
      </div>
      <Section title="Basics">
        <ToolNameField name={tool.name} />
        <TextField
          label="Description"
          multiline
          rows={3}
          value={tool.desc}
          onChange={(desc) => update({ desc }, "desc")}
          hint="The planner reads this to decide when to call the tool: say what it does and returns."
          testId="tool-desc-input"
        />
        <SideEffectPicker
          value={tool.sideEffects}
          onChange={(sideEffects) => update({ sideEffects }, "sideEffects")}
        />
        <ListField
          label="Tags"
          value={tool.tags}
          onChange={(tags) => update({ tags }, "tags")}
          placeholder="search, cache"
        />
        <ListField
          label="Auth scopes"
          value={tool.authScopes}
          onChange={(authScopes) => update({ authScopes }, "authScopes")}
          placeholder="docs:read"
        />
      </Section>
      <Section title="Behaviour">
        <ToggleField
          label="Requires approval"
          checked={tool.requiresApproval}
          hint="The run pauses for a person to approve, reject or edit the call."
          testId="tool-requires-approval"
          onChange={(requiresApproval) => update({ requiresApproval }, "requiresApproval")}
        />
        <ApprovalLimitField
          value={tool.approval}
          testId="tool-approval-limit"
          offHint={
            agentApproval
              ? `Off: a pause here follows the agent's limit (${formatApprovalLimit(agentApproval.timeoutS)}, then ${agentApproval.onTimeout}).`
              : "Off: a pause here waits until a person decides."
          }
          onChange={(approval) => update({ approval }, "approval")}
        />
        <ToggleField
          label="Auto-seq"
          checked={tool.autoSeq}
          hint="May be picked automatically when it is the only tool whose args fit the last output."
          testId="tool-auto-seq"
          onChange={(autoSeq) => update({ autoSeq }, "autoSeq")}
        />
        <ToggleField
          label="Auto-seq execute"
          checked={tool.autoSeqExecute}
          hint="When auto-picked, run it at once instead of only telling the model."
          testId="tool-auto-seq-execute"
          onChange={(autoSeqExecute) => update({ autoSeqExecute }, "autoSeqExecute")}
        />
        {HINT_TOGGLES.map(({ list, label, hint }) => (
          <ToggleField
            key={list}
            label={label}
            hint={hint}
            checked={hints[list].includes(tool.name)}
            testId={`tool-hint-${list}`}
            onChange={(enabled) =>
              editor.document.getState().dispatch({ type: "setToolHint", tool: tool.name, list, enabled })
            }
          />
        ))}
      </Section>
      <Section title="Arguments" summary={getFieldCount(tool.argsSchema)}>
        <SchemaEditor
          schema={tool.argsSchema}
          onChange={setArgs}
          testId="args-schema"
          emptyText="No arguments: the tool is called with {}."
        />
      </Section>
      <Section title="Output" summary={getFieldCount(tool.outSchema)}>
        <SchemaEditor
          schema={tool.outSchema}
          onChange={setOut}
          testId="out-schema"
          emptyText="No declared output fields: any object is accepted."
        />
      </Section>
      <Section title="Implementation" summary={tool.impl.kind}>
        <ImplEditor impl={tool.impl} onChange={(impl, key) => update({ impl }, `impl.${key}`)} />
      </Section>
      <Section title="Reliability" defaultOpen={false}>
        <ToggleField
          label="Own retry policy"
          checked={tool.retry !== undefined}
          hint="Off: the planner's default retry policy applies."
          onChange={(on) => update({ retry: on ? RetryPolicy.parse({}) : undefined }, "retry")}
        />
        {tool.retry ? (
          <div className="field-grid">
            <NumberField label="Max attempts" {...retryNumber(tool.retry, "maxAttempts")} />
            <NumberField label="Backoff (ms)" {...retryNumber(tool.retry, "backoffMs")} />
            <NumberField label="Max backoff (ms)" {...retryNumber(tool.retry, "maxBackoffMs")} />
          </div>
        ) : null}
        <NumberField
          label="Timeout (ms)"
          value={tool.timeoutMs}
          {...TOOL_BOUNDS.timeoutMs}
          onChange={(timeoutMs) => update({ timeoutMs }, "timeoutMs")}
          placeholder={`planner default (${plannerTimeoutMs.toLocaleString("en").replaceAll(",", " ")})`}
          testId="tool-timeout"
        />
      </Section>
      <Section title="Catalog hints" defaultOpen={false}>
        <TextField
          label="Cost hint"
          value={tool.costHint ?? ""}
          onChange={(costHint) => update({ costHint: costHint || undefined }, "costHint")}
          placeholder="cheap, $$, …"
        />
        <NumberField
          label="Cost per call (USD)"
          value={tool.costUsd}
          {...TOOL_BOUNDS.costUsd}
          onChange={(costUsd) => update({ costUsd }, "costUsd")}
          hint="Counted against the max_cost_usd budget."
        />
        <NumberField
          label="Latency hint (ms)"
          value={tool.latencyHintMs}
          {...TOOL_BOUNDS.latencyHintMs}
          onChange={(latencyHintMs) => update({ latencyHintMs }, "latencyHintMs")}
        />
        <TextField
          label="Safety notes"
          multiline
          rows={2}
          value={tool.safetyNotes ?? ""}
          onChange={(safetyNotes) => update({ safetyNotes: safetyNotes || undefined }, "safetyNotes")}
        />
        <JsonField
          label="Extra"
          value={tool.extra}
          onChange={(extra) => update({ extra: extra as Record<string, unknown> }, "extra")}
          rows={3}
          hint="Free-form metadata passed to the catalog."
          check={(value) =>
            typeof value === "object" && value !== null && !Array.isArray(value)
              ? null
              : "Must be a JSON object."
          }
        />
      </Section>
    </div>
  );
}
