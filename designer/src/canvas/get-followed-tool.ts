import type { NodeRunView } from "../runs/fold/run-view.js";
import type { Rect } from "../model/geometry.js";

const ACTIVE = new Set<NodeRunView["state"]>(["running", "retrying", "awaiting_approval", "queued"]);

/**
 * The tool the view follows during a run: the one that changed last among those running (or retrying,
 * waiting for approval), else the one the run touched last, so the view stays put between steps and
 * after the end. Null before the run has touched any tool.
 */
export function getFollowedTool(nodes: Readonly<Record<string, NodeRunView>>): string | null {
  let best: { name: string; active: boolean; seq: number } | null = null;
  for (const [name, node] of Object.entries(nodes)) {
    if (node.state === "idle") continue;
    const candidate = { name, active: ACTIVE.has(node.state), seq: node.changedSeq };
    if (
      best === null ||
      (candidate.active && !best.active) ||
      (candidate.active === best.active && candidate.seq > best.seq)
    )
      best = candidate;
  }
  return best?.name ?? null;
}

/** True when `rect` lies inside `view` with `inset` (a fraction of the view) to spare on every side. */
export function isWellInView(rect: Rect, view: Rect, inset = 0.1): boolean {
  const dx = view.width * inset;
  const dy = view.height * inset;
  return (
    rect.x >= view.x + dx &&
    rect.y >= view.y + dy &&
    rect.x + rect.width <= view.x + view.width - dx &&
    rect.y + rect.height <= view.y + view.height - dy
  );
}
