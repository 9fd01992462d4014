import { afterEach, describe, expect, it } from "vitest";
import {
  createViewPrefsStore,
  getClampedWidth,
  PANEL_LIMITS,
  parseViewPrefs,
  VIEW_PREFS_KEY,
} from "./view-prefs-store.js";

const memory = new Map<string, string>();
const storage = {
  getItem: (key: string) => memory.get(key) ?? null,
  setItem: (key: string, value: string) => void memory.set(key, value),
};

describe("view preferences", () => {
  afterEach(() => {
    memory.clear();
    Reflect.deleteProperty(globalThis, "localStorage");
  });

  it("falls back to the defaults for missing, broken or foreign stored text", () => {
    const defaults = parseViewPrefs(null);
    expect(defaults.left).toEqual({ width: PANEL_LIMITS.left.initial, collapsed: false });
    expect(defaults.followRun).toBe(true);
    expect(parseViewPrefs("{not json")).toEqual(defaults);
    expect(parseViewPrefs(JSON.stringify({ left: { width: "wide" } }))).toEqual(defaults);
  });

  it("clamps a stored width to the panel's limits", () => {
    const prefs = parseViewPrefs(JSON.stringify({ right: { width: 5000, collapsed: true } }));
    expect(prefs.right).toEqual({ width: PANEL_LIMITS.right.max, collapsed: true });
    expect(getClampedWidth("left", 10)).toBe(PANEL_LIMITS.left.min);
  });

  it("writes every change to localStorage and a new store reads it back", () => {
    Object.defineProperty(globalThis, "localStorage", { value: storage, configurable: true });
    const store = createViewPrefsStore();
    store.getState().setPanel("left", { width: 333.4 });
    store.getState().togglePanel("right");
    store.getState().setFollowRun(false);
    expect(JSON.parse(memory.get(VIEW_PREFS_KEY) ?? "{}")).toEqual({
      left: { width: 333, collapsed: false },
      right: { width: PANEL_LIMITS.right.initial, collapsed: true },
      followRun: false,
    });
    const again = createViewPrefsStore().getState();
    expect(again.left.width).toBe(333);
    expect(again.right.collapsed).toBe(true);
    expect(again.followRun).toBe(false);
  });
});
