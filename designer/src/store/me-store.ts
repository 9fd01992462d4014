import { ROLES } from "@waddle/protocol";
import { z } from "zod";
import { create } from "zustand";
import { getStoredToken, setStoredToken } from "../api/token-storage.js";

/** `GET /api/me`: who is signed in, and what they may do. */
export const Me = z.object({
  name: z.string(),
  role: z.enum(ROLES),
  agents: z.array(z.string()).nullable(),
  kind: z.enum(["local", "token", "key"]).optional(),
  canDecide: z.boolean().optional(),
  /** May release to `production` (an admin, or an editor key created with `canRelease`). */
  canRelease: z.boolean().optional(),
  permissions: z.array(z.string()).optional(),
});
export type Me = z.infer<typeof Me>;

interface MeState {
  status: "loading" | "signin" | "ready" | "offline";
  me: Me | null;
  error: string | null;
}

export const meStore = create<MeState>(() => ({ status: "loading", me: null, error: null }));

/** Reads `/api/me` with the stored key: ready, or the sign-in screen on a 401. */
export async function loadMe(): Promise<void> {
  const token = getStoredToken();
  try {
    const response = await fetch("/api/me", {
      headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    if (response.status === 401) {
      meStore.setState({
        status: "signin",
        me: null,
        error: token ? "That key is not valid (any more)." : null,
      });
      return;
    }
    const me = Me.parse(await response.json());
    meStore.setState({ status: "ready", me, error: null });
  } catch {
    meStore.setState({
      status: "offline",
      me: null,
      error: "Cannot reach the Waddle server. Is it running?",
    });
  }
}

export async function signIn(key: string): Promise<void> {
  setStoredToken(key.trim());
  await loadMe();
}

export function signOut(): void {
  setStoredToken(null);
  window.location.reload();
}

/** Why the signed-in role may not do `permission`, or null when it may (shown as a hover title). */
export function getDeniedReason(me: Me | null, permission: string | undefined): string | null {
  if (!permission || !me?.permissions) return null;
  if (me.permissions.includes(permission)) return null;
  return `Your key (${me.name}, ${me.role}) may not do this: it needs "${permission}".`;
}

/** The reason a control is off for the signed-in role, or null. */
export function useDenied(permission: string | undefined): string | null {
  const me = meStore((state) => state.me);
  return getDeniedReason(me, permission);
}

/** The permission each designer command needs on the server (commands not listed need none). */
export const COMMAND_PERMISSIONS: Readonly<Record<string, string>> = {
  save: "agents:write",
  "new-agent": "agents:write",
  import: "agents:write",
  release: "agents:write",
  undo: "agents:write",
  redo: "agents:write",
};

/** What changing the design needs: a role without it sees the page read-only. */
export const DESIGN_PERMISSION = "agents:write";

/** The permission a command needs: its own, or the design's for one that edits the document (undoable). */
export function getCommandPermission(command: { name: string; undoable: boolean }): string | undefined {
  return COMMAND_PERMISSIONS[command.name] ?? (command.undoable ? DESIGN_PERMISSION : undefined);
}
