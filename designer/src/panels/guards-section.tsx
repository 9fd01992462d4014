import { GUARD_CHECK_KINDS, type Guard, type GuardCheckKind } from "@waddle/protocol";
import { useCallback, useState, type ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { useValidation } from "../editor/use-validation.js";
import { Icon } from "../components/icon.js";
import { Section } from "../components/section.js";
import { CHECK_KINDS, createGuard, getGuardIssues, isGuardIssue, moveGuard } from "../guards/guard-model.js";
import { GuardRow } from "./guard-row.js";
import { IssueList } from "./guard-issue-list.js";

/**
 * Settings → Guards: checks on the query, tool results and the answer (`guards`), each with what it does
 * when it fails, validated as the spec is (issues at their field), and a sample box that runs the check.
 */
export function GuardsSection(): ReactElement {
  const editor = useEditor();
  const guards = useDocument((state) => state.spec.guards);
  const tools = useDocument((state) => state.spec.tools);
  const issues = useValidation().issues.filter(isGuardIssue);
  const [kind, setKind] = useState<GuardCheckKind>("pii");
  const setGuards = useCallback(
    // typing in a field coalesces into one undo step; adding, removing and moving are a step each
    (next: Guard[], key?: string) =>
      editor.document
        .getState()
        .dispatch(
          { type: "updateAgent", patch: { guards: next } },
          key === undefined ? {} : { coalesceKey: `agent:guards:${key}` },
        ),
    [editor],
  );
  const toolNames = tools.map((tool) => tool.name);
  const listIssues = issues.filter((issue) => issue.path === "$.guards");
  return (
    <Section
      title="Guards"
      summary={guards.length === 0 ? "none" : `${guards.length} guard${guards.length === 1 ? "" : "s"}`}
      defaultOpen={guards.length > 0}
      testId="guards-section"
    >
      <p className="field-hint guards-intro">
        Checks on the query, each tool&apos;s result and the answer. Every decision is recorded (counts of
        what was found, never the text) and shows on the canvas and in the timeline.
      </p>
      <IssueList issues={listIssues} />
      {guards.length > 0 ? (
        <ol className="guard-list">
          {guards.map((guard, index) => (
            <GuardRow
              // a guard's place is its identity while it is edited (its name may be typed over)
              key={index}
              guard={guard}
              index={index}
              count={guards.length}
              tools={toolNames}
              issues={getGuardIssues(issues, index)}
              onChange={(next, field) =>
                setGuards(
                  guards.map((old, at) => (at === index ? next : old)),
                  `${index}.${field}`,
                )
              }
              onRemove={() => setGuards(guards.filter((_, at) => at !== index))}
              onMove={(delta) => setGuards(moveGuard(guards, index, delta))}
            />
          ))}
        </ol>
      ) : null}
      <div className="guard-add">
        <select
          className="input"
          value={kind}
          aria-label="Check of the new guard"
          data-testid="guard-add-kind"
          onChange={(event) => setKind(event.target.value as GuardCheckKind)}
        >
          {GUARD_CHECK_KINDS.map((option) => (
            <option key={option} value={option}>
              {CHECK_KINDS[option].label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-small"
          data-testid="guard-add"
          title={CHECK_KINDS[kind].hint}
          onClick={() => setGuards([...guards, createGuard(kind, guards)])}
        >
          <Icon name="plus" size={14} />
          Add guard
        </button>
      </div>
    </Section>
  );
}
