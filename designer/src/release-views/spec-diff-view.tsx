import type { AgentSpecDiff } from "@waddle/protocol";
import { useMemo, type ReactElement } from "react";
import { getSpecDiffView, type DiffRow, type DiffRowKind } from "../releases/get-spec-diff-view.js";

const SIGNS: Record<DiffRowKind, string> = { added: "+", removed: "−", changed: "~" };
const WORDS: Record<DiffRowKind, string> = { added: "added", removed: "removed", changed: "changed" };

function DiffRowView({ row }: { row: DiffRow }): ReactElement {
  // a field row of hints, planner or LLM is its one field: shown on one line
  const single = row.fields?.length === 1 && row.fields[0]!.path === row.label ? row.fields[0] : undefined;
  return (
    <li className={`diff-row is-${row.kind}`} data-kind={row.kind}>
      <div className="diff-row-head">
        <span className="diff-sign" aria-label={WORDS[row.kind]}>
          {SIGNS[row.kind]}
        </span>
        <span className="diff-label">{row.label}</span>
        {single ? (
          <span className="diff-values">
            <span className="diff-from">{single.from}</span> → <span className="diff-to">{single.to}</span>
          </span>
        ) : null}
      </div>
      {row.fields && !single ? (
        <table className="diff-fields">
          <tbody>
            {row.fields.map((field) => (
              <tr key={field.path} className={`is-${field.kind}`}>
                <th scope="row">{field.path}</th>
                <td className="diff-from">{field.from}</td>
                <td aria-hidden>→</td>
                <td className="diff-to">{field.to}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </li>
  );
}

/** A structural diff as a person reads it: a one-line summary, then a section per part that changed. */
export function SpecDiffView(props: { diff: AgentSpecDiff; testId?: string }): ReactElement {
  const view = useMemo(() => getSpecDiffView(props.diff), [props.diff]);
  return (
    <div className="spec-diff" data-testid={props.testId} data-changes={view.sections.length}>
      <p className="spec-diff-summary">{view.summary}</p>
      {view.sections.map((section) => (
        <section key={section.key} className="spec-diff-section" data-section={section.key}>
          <h4>{section.title}</h4>
          <ul className="diff-rows">
            {section.rows.map((row, index) => (
              <DiffRowView key={`${row.kind}:${row.label}:${index}`} row={row} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
