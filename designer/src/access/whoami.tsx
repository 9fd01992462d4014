import { useEffect, useRef, useState, type ReactElement } from "react";
import { meStore, signOut, type Me } from "../store/me-store.js";
import { Icon } from "../components/icon.js";

/** One or two letters for the avatar: "Ed Editor" → "EE", "WADDLE_TOKEN" → "WT", "local" → "L". */
export function getInitials(name: string): string {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0]![0], words[1]![0]] : [words[0]?.[0] ?? "?"];
  return letters.join("").toUpperCase();
}

const KIND_TEXT: Record<NonNullable<Me["kind"]>, string> = {
  key: "Signed in with an API key.",
  token: "Signed in with the server's WADDLE_TOKEN.",
  local: "This server has no sign-in: everyone on it is the local admin.",
};

/**
 * Who is signed in, kept small so the agent name keeps the header's room: an initials avatar (`whoami`,
 * which opens a card with the name, role and scope), then Sign out. Access is in the Settings menu.
 */
export function WhoAmI(): ReactElement | null {
  const me = meStore((state) => state.me);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);
  if (!me) return null;
  const scope = me.agents ? me.agents.join(", ") : "all agents";
  const shown = me.kind === "local" ? "local" : me.name;
  return (
    <span className="whoami" ref={root}>
      <button
        type="button"
        className="whoami-avatar"
        data-testid="whoami"
        aria-expanded={open}
        aria-haspopup="dialog"
        title={`Signed in as ${me.name} (${me.role}) · ${scope}`}
        onClick={() => setOpen((value) => !value)}
      >
        <span aria-hidden>{getInitials(shown)}</span>
        <span className="sr-only">
          {shown} · {me.role}
        </span>
      </button>
      {open ? (
        <div className="whoami-card" role="dialog" aria-label="Signed in as" data-testid="whoami-card">
          <div className="whoami-card-name">{me.name}</div>
          <div className="whoami-card-row">
            <span className="badge badge-muted">{me.role}</span>
            <span className="whoami-card-scope" title={scope}>
              {me.agents ? `Agents: ${scope}` : "All agents"}
            </span>
          </div>
          {me.kind ? <p className="whoami-card-hint">{KIND_TEXT[me.kind]}</p> : null}
        </div>
      ) : null}
      {me.kind === "local" ? null : (
        <button
          type="button"
          className="btn btn-ghost btn-icon"
          data-testid="sign-out"
          aria-label="Sign out"
          title={`Sign out ${me.name}`}
          onClick={signOut}
        >
          <Icon name="sign-out" />
        </button>
      )}
    </span>
  );
}
