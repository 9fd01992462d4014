import type { ReplayIndex } from "../../runs/replay/replay-index.js";
import type { RunView } from "../../runs/fold/run-view.js";

const endViews = new WeakMap<ReplayIndex, RunView>();

/**
 * The replayed run's view at its end (its whole timeline and steps), asked of the index once: the replay
 * lists every entry, those past the position dimmed, so that a click can jump forward as well as back.
 */
export function getReplayEndView(index: ReplayIndex): RunView {
  let view = endViews.get(index);
  if (view === undefined) {
    view = index.getViewAt(index.length);
    endViews.set(index, view);
  }
  return view;
}
