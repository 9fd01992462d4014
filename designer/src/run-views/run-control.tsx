import { TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import type { ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { useRunStore } from "./use-run-store.js";
import { useDenied } from "../store/me-store.js";
import { openRunPanel } from "./run-actions.js";
import { useRunPanel } from "./panel/run-panel-store.js";
import { getAgentRouteHash } from "./run-route.js";
import { navigateToHash, parseCredentialsRoute } from "../settings/settings-route.js";

/** The toolbar's Run control (`run-button`): opens the run panel (the panel closes itself); shows a live or paused run. */
export function RunControl(): ReactElement {
  const editor = useEditor();
  const open = useRunPanel((state) => state.open);
  const denied = useDenied("runs:start");
  const status = useRunStore((state) =>
    state.mode === "live" ? (state.status ?? state.view?.status ?? null) : null,
  );
  const live = status !== null && !TERMINAL_RUN_STATUSES.has(status);
  const tone = status === "paused" ? " is-paused" : live ? " is-live" : "";
  return (
    <button
      type="button"
      className={`btn run-control${tone}`}
      data-testid="run-button"
      aria-expanded={open}
      aria-label={live ? `Run panel (run ${status})` : "Run the agent"}
      disabled={denied !== null && !live}
      title={
        denied !== null && !live
          ? denied
          : live
            ? `A run is ${status}: open the run panel`
            : "Run the saved agent and watch it on the canvas"
      }
      onClick={() => {
        // From the Credentials page: back to the agent, where the panel lives.
        if (parseCredentialsRoute(window.location.hash))
          navigateToHash(getAgentRouteHash({ agentId: editor.document.getState().agentId }));
        openRunPanel(editor);
      }}
    >
      <svg className="icon" width={16} height={16} viewBox="0 0 24 24" aria-hidden>
        {live ? (
          <circle cx="12" cy="12" r="5" fill="currentColor" />
        ) : (
          <path d="M7 4.5v15l12-7.5z" fill="currentColor" />
        )}
      </svg>
      {status === "paused" ? "Paused" : live ? "Running" : "Run"}
    </button>
  );
}
