import type { AgentSpec } from "@waddle/protocol";
import { useMemo } from "react";
import type { RunArcFlowEdge } from "../../graph/flow-types.js";
import type { TransitionView } from "../../runs/fold/run-view.js";
import { useRunStore } from "../use-run-store.js";
import { getRunArcs } from "./get-run-overlay.js";

const NO_TRANSITIONS: readonly TransitionView[] = [];
const NO_ARCS: RunArcFlowEdge[] = [];

/** The temporary arcs of the played run, as edges the canvas adds while the run is shown. */
export function useRunArcEdges(spec: AgentSpec | null): RunArcFlowEdge[] {
  const transitions = useRunStore((state) =>
    (state.mode === "live" || state.mode === "replay") && state.view
      ? state.view.transitions
      : NO_TRANSITIONS,
  );
  const tools = useMemo(() => new Set(spec?.tools.map((tool) => tool.name)), [spec]);
  return useMemo(() => {
    if (spec === null || transitions.length === 0) return NO_ARCS;
    return getRunArcs({ transitions, tools }).map((arc): RunArcFlowEdge => ({
      id: arc.id,
      type: "runArc",
      source: arc.source,
      target: arc.target,
      selectable: false,
      focusable: false,
      deletable: false,
      zIndex: 2,
      data: { provenance: arc.provenance, seq: arc.seq, latest: arc.latest, count: arc.count },
    }));
  }, [spec, tools, transitions]);
}
