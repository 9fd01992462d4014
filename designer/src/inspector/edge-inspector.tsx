import type { Edge } from "@waddle/protocol";
import type { ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { Icon } from "../components/icon.js";
import { Section } from "../components/section.js";
import { getObjectMatch } from "../graph/suggest-auto-seq-edges.js";

/** An edge: its kind, what it means, and whether an auto-seq edge can ever fire. */
export function EdgeInspector({ edge }: { edge: Edge }): ReactElement {
  const editor = useEditor();
  const spec = useDocument((state) => state.spec);
  const dispatch = editor.document.getState().dispatch;
  const source = spec.tools.find((tool) => tool.name === edge.source);
  const target = spec.tools.find((tool) => tool.name === edge.target);
  const match = source && target ? getObjectMatch(source.outSchema, target.argsSchema) : null;
  const setKind = (kind: Edge["kind"]) => {
    editor.document.getState().transact("change edge kind", () => {
      dispatch({ type: "updateEdge", id: edge.id, patch: { kind } });
      if (kind === "auto_seq" && target && !target.autoSeq)
        dispatch({ type: "updateTool", name: target.name, patch: { autoSeq: true } });
    });
  };
  return (
    <div className="inspector-body" data-testid="edge-inspector">
      <div className="inspector-title">
        <Icon name="link" />
        <h2>
          {edge.source} → {edge.target}
        </h2>
      </div>
      <Section title="Edge">
        <div className="segmented segmented-wide" role="radiogroup" aria-label="Edge kind">
          {(["auto_seq", "order"] as const).map((kind) => (
            <button
              key={kind}
              type="button"
              role="radio"
              aria-checked={edge.kind === kind}
              className={`segment${edge.kind === kind ? " is-active" : ""}`}
              data-testid={`edge-inspector-kind-${kind}`}
              onClick={() => setKind(kind)}
            >
              {kind === "auto_seq" ? "Auto-seq" : "Order"}
            </button>
          ))}
        </div>
        <p className="explain">
          {edge.kind === "auto_seq"
            ? `After ${edge.source}, ${edge.target} may run next without asking the model — when it is the only eligible tool whose args fit ${edge.source}'s output.`
            : `An ordering hint: the planner is told to call ${edge.source} before ${edge.target}.`}
        </p>
      </Section>
      {edge.kind === "auto_seq" ? (
        <Section title="Will it fire?">
          <ul className="checklist">
            <li className={match ? "is-ok" : "is-bad"}>
              {match
                ? `${edge.source}'s output has every required arg of ${edge.target}${match.length ? ` (${match.join(", ")})` : ""}.`
                : `${edge.source}'s output does not fit ${edge.target}'s args (a required arg is missing or of another type).`}
            </li>
            <li className={target?.autoSeq ? "is-ok" : "is-bad"}>
              {target?.autoSeq ? `Auto-seq is on for ${edge.target}.` : `Auto-seq is off for ${edge.target}.`}
              {target && !target.autoSeq ? (
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() =>
                    dispatch({ type: "updateTool", name: target.name, patch: { autoSeq: true } })
                  }
                >
                  Turn on
                </button>
              ) : null}
            </li>
            <li className={spec.planner.autoSeq.enabled ? "is-ok" : "is-bad"}>
              {spec.planner.autoSeq.enabled
                ? "Auto-seq is enabled for this agent."
                : "Auto-seq is disabled for this agent (Settings → Planner)."}
              {spec.planner.autoSeq.enabled ? null : (
                <button
                  type="button"
                  className="btn btn-small"
                  data-testid="enable-agent-auto-seq"
                  onClick={() =>
                    dispatch({
                      type: "updatePlanner",
                      patch: { autoSeq: { ...spec.planner.autoSeq, enabled: true } },
                    })
                  }
                >
                  Enable
                </button>
              )}
            </li>
          </ul>
        </Section>
      ) : null}
      <button
        type="button"
        className="btn btn-danger-ghost"
        data-testid="delete-edge"
        onClick={() => dispatch({ type: "removeElements", edges: [edge.id] })}
      >
        <Icon name="trash" size={14} /> Delete edge
      </button>
    </div>
  );
}
