import { TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import type { ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { useRunStore } from "./use-run-store.js";
import { useDenied } from "../store/me-store.js";
import { openRunHistory, openRunPanel } from "./run-actions.js";
import { Icon } from "../components/icon.js";
import { useRunPanel } from "./panel/run-panel-store.js";
import { getAgentRouteHash } from "./run-route.js";
import { navigateToHash, parseCredentialsRoute } from "../settings/settings-route.js";

/**
 * The toolbar's Run control (`run-button`): opens the run panel (the panel closes itself); shows a live or
 * paused run. A role that may not start runs gets History beside it (`open-run-history`).
 */
export function RunControl(): ReactElement {
  const editor = useEditor();
  const open = useRunPanel((state) => state.open);
  const denied = useDenied("runs:start");
  const status = useRunStore((state) =>
    state.mode === "live" ? (state.status ?? state.view?.status ?? null) : null,
  );
  const live = status !== null && !TERMINAL_RUN_STATUSES.has(status);
  const tone = status === "paused" ? " is-paused" : live ? " is-live" : "";
  const leaveCredentials = () => {
    // From the Credentials page: back to the agent, where the panel lives.
    if (parseCredentialsRoute(window.location.hash))
      navigateToHash(getAgentRouteHash({ agentId: editor.document.getState().agentId }));
  };
  const run = (
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
        leaveCredentials();
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
  if (denied === null) return run;
  // Run is the panel's door for everyone else: a role that may not start runs still reads them
  return (
    <>
      {run}
      <button
        type="button"
        className="btn"
        data-testid="open-run-history"
        aria-expanded={open}
        title="Open the run panel on History: past runs, their replays and chats (your key may not start runs)"
        onClick={() => {
          leaveCredentials();
          openRunHistory(editor);
        }}
      >
        <Icon name="history" />
        History
      </button>
    </>
  );
}
