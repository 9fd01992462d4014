import type { ReactElement } from "react";
import { meStore, signOut } from "../store/me-store.js";
import { navigateToHash } from "../settings/settings-route.js";
import { ACCESS_HASH } from "./access-route.js";

/** Who is signed in (with sign out), and the Access page for those who manage keys. */
export function WhoAmI(): ReactElement | null {
  const me = meStore((state) => state.me);
  if (!me) return null;
  const manages = me.permissions?.includes("keys:manage") ?? false;
  const scope = me.agents ? ` · ${me.agents.join(", ")}` : "";
  return (
    <span className="whoami">
      <span data-testid="whoami" title={`Signed in as ${me.name} (${me.role})${scope}`}>
        {me.kind === "local" ? "local" : me.name} · {me.role}
      </span>
      <button
        type="button"
        className="btn btn-ghost"
        data-testid="open-access"
        disabled={!manages}
        title={manages ? "Access: API keys and roles" : `Only admins manage keys (you are ${me.role}).`}
        onClick={() => navigateToHash(ACCESS_HASH)}
      >
        Access
      </button>
      {me.kind === "local" ? null : (
        <button type="button" className="btn btn-ghost" data-testid="sign-out" onClick={signOut}>
          Sign out
        </button>
      )}
    </span>
  );
}
