import { useEffect, useMemo, type ReactElement } from "react";
import { useEditor, type Editor } from "../../editor/editor-context.js";
import type { ReplayIndex } from "../../runs/replay/replay-index.js";
import { useRunStore } from "../use-run-store.js";
import { getNextSpeed } from "../../runs/replay/replay-clock.js";
import { ReplayBar } from "./replay-bar.js";
import { getReplayEndView } from "./replay-end-view.js";
import { getReplayKeyAction } from "./replay-key-action.js";
import { getReplayMarkers } from "./replay-markers.js";

/**
 * The replay transport of the shown run (the run store's player does the timing): step, play/pause,
 * the scrubber, speed, and the keys (space, ←/→, Home/End, +/-) while a replay is shown.
 */
export function ReplayControls(): ReactElement | null {
  const editor = useEditor();
  const mode = useRunStore((state) => state.mode);
  const replay = useRunStore((state) => state.replay);
  const lastTs = useRunStore((state) => state.view?.lastTs ?? null);
  const latest = useRunStore((state) =>
    state.replay.position > 0 ? state.view?.timeline.at(-1)?.title : undefined,
  );
  const index = replay.index;
  const markers = useMemo(() => (index ? getMarkers(index) : []), [index]);
  useReplayKeys(editor, mode === "replay");
  if (mode !== "replay") return null;
  const firstTs = index?.events[0]?.ts ?? null;
  const endTs = index?.events.at(-1)?.ts ?? null;
  const elapsedMs = firstTs !== null && lastTs !== null && replay.position > 0 ? lastTs - firstTs : 0;
  const totalMs = firstTs !== null && endTs !== null ? endTs - firstTs : 0;
  const runs = () => editor.runs.getState();
  return (
    <ReplayBar
      position={replay.position}
      length={replay.length}
      playing={replay.playing}
      speed={replay.speed}
      elapsedMs={elapsedMs}
      totalMs={totalMs}
      markers={markers}
      latest={latest}
      onSeek={(position) => runs().seek(position)}
      onTogglePlay={() => (runs().replay.playing ? runs().pause() : runs().play())}
      onStep={(delta) => runs().step(delta)}
      onSpeed={(speed) => runs().setSpeed(speed)}
    />
  );
}

/** The run panel places the replay under this name. */
export const RunReplay = ReplayControls;

function getMarkers(index: ReplayIndex) {
  return getReplayMarkers({
    timeline: getReplayEndView(index).timeline,
    length: index.length,
    getPosition: (seq) => index.getPositionOfSeq(seq),
  });
}

/** Space plays or pauses, ←/→ step, Home/End jump, +/- change speed; never while typing in a field. */
function useReplayKeys(editor: Editor, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || editor.ui.getState().dialog !== null) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const action = getReplayKeyAction({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        targetTag: target?.tagName,
        targetEditable: target?.isContentEditable === true,
      });
      if (action === null) return;
      const runs = editor.runs.getState();
      if (runs.mode !== "replay") return;
      event.preventDefault();
      const { length, playing, speed } = runs.replay;
      if (action === "toggle") {
        if (playing) runs.pause();
        else runs.play();
      } else if (action === "back") runs.step(-1);
      else if (action === "forward") runs.step(1);
      else if (action === "start") runs.seek(0);
      else if (action === "end") runs.seek(length);
      else runs.setSpeed(getNextSpeed(speed, action === "faster" ? 1 : -1));
    };
    // capture: React Flow takes space (pan while held) on the document and prevents its default first
    window.addEventListener("keydown", onKeyDown, { capture: true });
    return () => window.removeEventListener("keydown", onKeyDown, { capture: true });
  }, [editor, active]);
}
