import { useState, type ReactElement } from "react";
import { Icon } from "../../components/icon.js";
import { getCredentialsHash, navigateToHash } from "../../settings/settings-route.js";
import { dismissOfflineNotice, isOfflineNoticeDismissed } from "./offline-notice-dismissals.js";

function getStorage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * One line in the run panel when the agent runs on the offline model: it composes answers from the
 * agent's tools and is not an LLM, with a link to add a credential. Dismissed once per agent (remembered in
 * this browser), so it explains without nagging.
 */
export function OfflineModelNotice({ agentId }: { agentId: string | null }): ReactElement | null {
  const [dismissed, setDismissed] = useState<string | null | undefined>(undefined);
  if (dismissed === agentId || isOfflineNoticeDismissed(getStorage(), agentId)) return null;
  return (
    <p className="run-offline-notice" role="note" data-testid="run-offline-notice">
      <Icon name="info" size={13} />
      <span>
        The offline model composes answers from this agent&apos;s tools; it is not an LLM.{" "}
        <button
          type="button"
          className="btn-link"
          data-testid="run-offline-notice-credentials"
          onClick={() => navigateToHash(getCredentialsHash({ addLlm: "OPENAI_API_KEY" }))}
        >
          Add a credential
        </button>{" "}
        to use a real model.
      </span>
      <button
        type="button"
        className="run-offline-notice-close"
        aria-label="Dismiss this note"
        title="Dismiss (for this agent)"
        data-testid="run-offline-notice-dismiss"
        onClick={() => {
          dismissOfflineNotice(getStorage(), agentId);
          setDismissed(agentId);
        }}
      >
        <Icon name="close" size={12} />
      </button>
    </p>
  );
}
