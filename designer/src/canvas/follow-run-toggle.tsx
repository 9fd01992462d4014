import type { ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { Icon } from "../components/icon.js";
import { useRunStore } from "../run-views/use-run-store.js";
import { getViewPrefsStore, useViewPrefs } from "../editor/use-view-prefs.js";

/** Over the canvas while a run plays: whether the view follows the running tool (remembered). */
export function FollowRunToggle(): ReactElement | null {
  const editor = useEditor();
  const playing = useRunStore((state) => state.mode === "live" || state.mode === "replay");
  const follow = useViewPrefs((state) => state.followRun);
  if (!playing) return null;
  return (
    <button
      type="button"
      className={`btn btn-small follow-run-toggle${follow ? " is-on" : ""}`}
      data-testid="follow-run"
      aria-pressed={follow}
      title={
        follow
          ? "The view pans to the running tool. Moving the view yourself turns this off."
          : "Pan the view to the running tool as the run goes"
      }
      onClick={() => getViewPrefsStore(editor).getState().setFollowRun(!follow)}
    >
      <Icon name="target" size={14} />
      Follow run
    </button>
  );
}
