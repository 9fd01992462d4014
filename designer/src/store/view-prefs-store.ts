import { z } from "zod";
import { createStore, type StoreApi } from "zustand/vanilla";

/** The two side panels: the left (agents, tools) and the right (inspector, or the run panel). */
export type PanelSide = "left" | "right";

export interface PanelPrefs {
  width: number;
  collapsed: boolean;
}

/** Widths a panel may take, in CSS pixels; the canvas takes what is left. */
export const PANEL_LIMITS: Record<PanelSide, { min: number; max: number; initial: number }> = {
  left: { min: 200, max: 480, initial: 280 },
  right: { min: 300, max: 640, initial: 372 },
};

const PanelPrefsJson = z.object({ width: z.number().finite(), collapsed: z.boolean() });
const ViewPrefsJson = z.object({
  left: PanelPrefsJson.optional(),
  right: PanelPrefsJson.optional(),
  followRun: z.boolean().optional(),
});

export interface ViewPrefs {
  left: PanelPrefs;
  right: PanelPrefs;
  /** During a live run the canvas pans to the running tool. */
  followRun: boolean;
}

export interface ViewPrefsState extends ViewPrefs {
  setPanel(side: PanelSide, patch: Partial<PanelPrefs>): void;
  togglePanel(side: PanelSide): void;
  setFollowRun(followRun: boolean): void;
}

export type ViewPrefsStore = StoreApi<ViewPrefsState>;

/** The localStorage key the panels' widths, collapsed states and the follow toggle live under. */
export const VIEW_PREFS_KEY = "waddle.view";

/** A width inside the side's limits (rounded to whole pixels). */
export function getClampedWidth(side: PanelSide, width: number): number {
  const { min, max } = PANEL_LIMITS[side];
  return Math.round(Math.min(max, Math.max(min, width)));
}

/** Stored preferences as text → preferences; anything unreadable falls back to the defaults, field by field. */
export function parseViewPrefs(text: string | null): ViewPrefs {
  const defaults: ViewPrefs = {
    left: { width: PANEL_LIMITS.left.initial, collapsed: false },
    right: { width: PANEL_LIMITS.right.initial, collapsed: false },
    followRun: true,
  };
  if (!text) return defaults;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return defaults;
  }
  const parsed = ViewPrefsJson.safeParse(raw);
  if (!parsed.success) return defaults;
  const panel = (side: PanelSide): PanelPrefs => {
    const stored = parsed.data[side];
    return stored
      ? { width: getClampedWidth(side, stored.width), collapsed: stored.collapsed }
      : defaults[side];
  };
  return { left: panel("left"), right: panel("right"), followRun: parsed.data.followRun ?? true };
}

function readStored(): string | null {
  try {
    return globalThis.localStorage?.getItem(VIEW_PREFS_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Creates the store of view preferences that outlive a reload (kept in localStorage). */
export function createViewPrefsStore(): ViewPrefsStore {
  const store = createStore<ViewPrefsState>()((set, get) => ({
    ...parseViewPrefs(readStored()),
    setPanel(side, patch) {
      const current = get()[side];
      const width = patch.width === undefined ? current.width : getClampedWidth(side, patch.width);
      set({ [side]: { width, collapsed: patch.collapsed ?? current.collapsed } });
    },
    togglePanel(side) {
      get().setPanel(side, { collapsed: !get()[side].collapsed });
    },
    setFollowRun: (followRun) => set({ followRun }),
  }));
  store.subscribe((state) => {
    const prefs: ViewPrefs = { left: state.left, right: state.right, followRun: state.followRun };
    try {
      globalThis.localStorage?.setItem(VIEW_PREFS_KEY, JSON.stringify(prefs));
    } catch {
      // private mode or full storage: the preferences then last for this page only
    }
  });
  return store;
}
