import { ApprovalTimeoutAction, type ApprovalPolicy } from "@waddle/protocol";
import { useId, useState, type ReactElement } from "react";
import { ToggleField } from "../components/fields.js";
import {
  APPROVAL_LIMIT_UNITS,
  DEFAULT_APPROVAL_POLICY,
  getApprovalLimitParts,
  readApprovalLimit,
  type ApprovalLimitUnit,
} from "../model/approval-limit.js";
import "../styles/approval-limit.css";

const ACTIONS: Readonly<Record<ApprovalTimeoutAction, string>> = {
  reject: "reject",
  approve: "approve",
  fail: "fail the run",
};

/** The limit's amount and unit as typed: kept while it is half-typed or refused, else the stored value. */
function useLimitDraft(timeoutS: number, onChange: (timeoutS: number) => void) {
  const [draft, setDraft] = useState(() => ({
    ...getApprovalLimitParts(timeoutS),
    source: timeoutS,
    error: null as string | null,
  }));
  let current = draft;
  if (draft.source !== timeoutS) {
    // changed from outside (undo, another tool's paste): show it unless the typed text says the same
    const parsed = readApprovalLimit(draft.amount, draft.unit);
    current =
      parsed.ok && parsed.value === timeoutS
        ? { ...draft, source: timeoutS }
        : { ...getApprovalLimitParts(timeoutS), source: timeoutS, error: null };
    setDraft(current);
  }
  const set = (amount: string, unit: ApprovalLimitUnit) => {
    const parsed = readApprovalLimit(amount, unit);
    if (!parsed.ok) return setDraft({ amount, unit, source: current.source, error: parsed.error });
    setDraft({ amount, unit, source: parsed.value, error: null });
    if (parsed.value !== current.source) onChange(parsed.value);
  };
  return { ...current, set };
}

function LimitRow(props: {
  policy: ApprovalPolicy;
  onChange: (policy: ApprovalPolicy) => void;
  testId: string;
}): ReactElement {
  const { policy } = props;
  const id = useId();
  const draft = useLimitDraft(policy.timeoutS, (timeoutS) => props.onChange({ ...policy, timeoutS }));
  return (
    <div className={`field approval-limit${draft.error ? " field-invalid" : ""}`}>
      <div className="approval-limit-row" role="group" aria-label="Decide automatically">
        <label className="approval-limit-word" htmlFor={`${id}-amount`}>
          after
        </label>
        <input
          id={`${id}-amount`}
          className="input approval-limit-amount"
          inputMode="decimal"
          value={draft.amount}
          aria-invalid={draft.error ? true : undefined}
          aria-describedby={`${id}-note`}
          data-testid={`${props.testId}-amount`}
          onChange={(event) => draft.set(event.target.value, draft.unit)}
        />
        <select
          className="input approval-limit-unit"
          aria-label="Unit"
          value={draft.unit}
          data-testid={`${props.testId}-unit`}
          onChange={(event) => draft.set(draft.amount, event.target.value as ApprovalLimitUnit)}
        >
          {APPROVAL_LIMIT_UNITS.map((entry) => (
            <option key={entry.unit} value={entry.unit}>
              {entry.label}
            </option>
          ))}
        </select>
        <span className="approval-limit-word" aria-hidden>
          →
        </span>
        <select
          className="input approval-limit-action"
          aria-label="Then"
          value={policy.onTimeout}
          data-testid={`${props.testId}-action`}
          onChange={(event) =>
            props.onChange({ ...policy, onTimeout: event.target.value as ApprovalTimeoutAction })
          }
        >
          {ApprovalTimeoutAction.options.map((action) => (
            <option key={action} value={action}>
              {ACTIONS[action]}
            </option>
          ))}
        </select>
      </div>
      {draft.error ? (
        <p className="field-error" role="alert" id={`${id}-note`} data-testid={`${props.testId}-error`}>
          {draft.error}
        </p>
      ) : (
        <p className="field-hint" id={`${id}-note`}>
          {HINTS[policy.onTimeout]}
        </p>
      )}
    </div>
  );
}

const HINTS: Readonly<Record<ApprovalTimeoutAction, string>> = {
  reject: "Nobody decided in time: the call is rejected and the run goes on without it.",
  approve: "Nobody decided in time: the call goes ahead as proposed.",
  fail: "Nobody decided in time: the run fails.",
};

/**
 * **Decide automatically after [N] [s/min/h] → reject | approve | fail**: a tool's or the agent's time limit
 * on waiting for a person (`approval`). Off: a pause waits as long as it takes (or the agent's limit).
 */
export function ApprovalLimitField(props: {
  value: ApprovalPolicy | undefined;
  onChange: (policy: ApprovalPolicy | undefined) => void;
  /** What "off" means here (a tool falls back to the agent's limit). */
  offHint: string;
  testId: string;
}): ReactElement {
  return (
    <div className="approval-limit-field" data-testid={props.testId}>
      <ToggleField
        label="Decide automatically"
        checked={props.value !== undefined}
        hint={
          props.value
            ? "A pause still waiting after this long is decided by the server, once."
            : props.offHint
        }
        testId={`${props.testId}-toggle`}
        onChange={(on) => props.onChange(on ? DEFAULT_APPROVAL_POLICY : undefined)}
      />
      {props.value ? <LimitRow policy={props.value} onChange={props.onChange} testId={props.testId} /> : null}
    </div>
  );
}
