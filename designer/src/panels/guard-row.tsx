import {
  GUARD_CHECK_KINDS,
  type Guard,
  type GuardAction,
  type GuardCheckKind,
  type GuardStage,
  type SpecIssue,
} from "@waddle/protocol";
import type { ReactElement } from "react";
import { SelectField, TextField } from "../components/fields.js";
import { Icon } from "../components/icon.js";
import {
  ACTION_LABELS,
  CHECK_KINDS,
  getActionHint,
  getFieldIssues,
  getGuardActions,
  getGuardSummary,
  setGuardCheckKind,
  setGuardStage,
  STAGE_HINTS,
  STAGE_LABELS,
} from "../guards/guard-model.js";
import { GuardCheckFields } from "./guard-check-fields.js";
import { IssueList } from "./guard-issue-list.js";
import { GuardSample } from "./guard-sample.js";

/** Fields whose issues show at the field; the guard's other issues are listed at its foot. */
const FIELDS_WITH_ISSUES = [
  "name",
  "action",
  "message",
  "tools",
  "check.words",
  "check.schema",
  "check.prompt",
  "check.name",
];

/** One guard in Settings → Guards: what it looks at, its check and options, what it does, and a sample box. */
export function GuardRow(props: {
  guard: Guard;
  index: number;
  count: number;
  /** The agent's tools, for a tool_result guard's list. */
  tools: readonly string[];
  /** This guard's validation issues. */
  issues: readonly SpecIssue[];
  onChange: (guard: Guard, field: string) => void;
  onRemove: () => void;
  onMove: (delta: -1 | 1) => void;
}): ReactElement {
  const { guard, index, issues, onChange } = props;
  const issuesAt = (field: string) => getFieldIssues(issues, index, field);
  const firstError = (field: string) => issuesAt(field)[0]?.message ?? null;
  const atFields = new Set(FIELDS_WITH_ISSUES.flatMap(issuesAt));
  const rest = issues.filter((issue) => !atFields.has(issue));
  const testId = `guard-${index}`;
  const actions = getGuardActions(guard.check.kind);
  return (
    <li
      className={`guard-row${issues.some((issue) => issue.severity === "error") ? " is-invalid" : ""}`}
      data-testid="guard-row"
      data-guard={guard.name}
      aria-label={`Guard ${guard.name}`}
    >
      <div className="guard-row-head">
        <Icon name="shield" size={14} />
        <strong className="guard-row-name">{guard.name || "(no name)"}</strong>
        <span className="guard-row-summary">{getGuardSummary(guard)}</span>
        <span className="guard-row-tools">
          <button
            type="button"
            className="btn btn-ghost btn-icon btn-small"
            disabled={index === 0}
            title="Move up: guards of a stage run in this order"
            aria-label={`Move guard ${guard.name} up`}
            onClick={() => props.onMove(-1)}
          >
            <Icon name="up" size={14} />
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-icon btn-small"
            disabled={index === props.count - 1}
            title="Move down"
            aria-label={`Move guard ${guard.name} down`}
            onClick={() => props.onMove(1)}
          >
            <Icon name="down" size={14} />
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-icon btn-small"
            data-testid="guard-remove"
            title="Remove this guard"
            aria-label={`Remove guard ${guard.name}`}
            onClick={props.onRemove}
          >
            <Icon name="trash" size={14} />
          </button>
        </span>
      </div>
      <div className="field-grid">
        <TextField
          label="Name"
          value={guard.name}
          error={firstError("name")}
          testId={`${testId}-name`}
          onChange={(name) => onChange({ ...guard, name }, "name")}
        />
        <SelectField<GuardStage>
          label="Checks"
          value={guard.on}
          options={(["input", "tool_result", "output"] as const).map((on) => ({
            value: on,
            label: STAGE_LABELS[on],
          }))}
          hint={STAGE_HINTS[guard.on]}
          testId={`${testId}-on`}
          onChange={(on) => onChange(setGuardStage(guard, on), "on")}
        />
        <SelectField<GuardCheckKind>
          label="Check"
          value={guard.check.kind}
          options={GUARD_CHECK_KINDS.map((kind) => ({ value: kind, label: CHECK_KINDS[kind].label }))}
          hint={CHECK_KINDS[guard.check.kind].hint}
          testId={`${testId}-kind`}
          onChange={(kind) => onChange(setGuardCheckKind(guard, kind), "check")}
        />
        <SelectField<GuardAction>
          label="When it fails"
          value={guard.action}
          options={actions.map((action) => ({ value: action, label: ACTION_LABELS[action] }))}
          hint={firstError("action") ?? getActionHint(guard.action, guard.on)}
          testId={`${testId}-action`}
          onChange={(action) => onChange({ ...guard, action }, "action")}
        />
      </div>
      <GuardCheckFields
        check={guard.check}
        issuesAt={(field) => issuesAt(`check.${field}`)}
        testId={testId}
        onChange={(check) => onChange({ ...guard, check }, "check")}
      />
      {guard.on === "tool_result" ? (
        <ToolPicker guard={guard} tools={props.tools} testId={testId} onChange={onChange} />
      ) : null}
      <IssueList issues={issuesAt("tools")} />
      <div className="field-grid">
        <SelectField<"block" | "allow">
          label="If the check cannot run"
          value={guard.onError}
          options={[
            { value: "block", label: "Block" },
            { value: "allow", label: "Let it pass" },
          ]}
          hint={
            guard.onError === "block"
              ? "A check that throws or times out blocks (fails closed)."
              : "A check that throws or times out lets the text through, recorded."
          }
          testId={`${testId}-on-error`}
          onChange={(onError) => onChange({ ...guard, onError }, "onError")}
        />
        <TextField
          label="Message"
          value={guard.message ?? ""}
          placeholder={guard.on === "tool_result" ? "Told to the model" : "Told to the caller"}
          hint="Why it blocked, in words (never the matched text)."
          error={firstError("message")}
          testId={`${testId}-message`}
          onChange={(message) => {
            const { message: _old, ...others } = guard;
            onChange(message === "" ? others : { ...guard, message }, "message");
          }}
        />
      </div>
      <IssueList issues={rest} />
      <GuardSample check={guard.check} name={guard.name} />
    </li>
  );
}

function ToolPicker(props: {
  guard: Guard;
  tools: readonly string[];
  testId: string;
  onChange: (guard: Guard, field: string) => void;
}): ReactElement {
  const { guard, tools } = props;
  const chosen = guard.tools ?? [];
  // a name the guard watches that is no tool of the agent still shows, so that it can be unticked
  const names = [...tools, ...chosen.filter((name) => !tools.includes(name))];
  const toggle = (name: string, on: boolean) => {
    const next = names.filter((candidate) => (candidate === name ? on : chosen.includes(candidate)));
    const { tools: _old, ...others } = guard;
    props.onChange(next.length === 0 ? others : { ...guard, tools: next }, "tools");
  };
  return (
    <div className="field">
      <span className="field-label">Tools it watches</span>
      {names.length === 0 ? (
        <p className="field-hint">The agent has no tools yet.</p>
      ) : (
        <div className="checkbox-row" data-testid={`${props.testId}-tools`}>
          {names.map((name) => (
            <label key={name} className={`check-chip${tools.includes(name) ? "" : " is-missing"}`}>
              <input
                type="checkbox"
                checked={chosen.includes(name)}
                data-tool={name}
                onChange={(event) => toggle(name, event.target.checked)}
              />
              {name}
            </label>
          ))}
        </div>
      )}
      <p className="field-hint">
        {chosen.length === 0 ? "None ticked: every tool's results." : `Only ${chosen.join(", ")}.`}
      </p>
    </div>
  );
}
