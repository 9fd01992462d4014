import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OfflineModelNotice } from "./offline-model-notice.js";
import {
  dismissOfflineNotice,
  isOfflineNoticeDismissed,
  OFFLINE_NOTICE_KEY,
} from "./offline-notice-dismissals.js";

function createStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe("the run panel's offline-model notice", () => {
  it("says plainly that the offline model is not an LLM, with a link to add a credential", () => {
    const html = renderToString(<OfflineModelNotice agentId="email-approval" />);
    expect(html).toContain('data-testid="run-offline-notice"');
    expect(html).toContain("composes answers from this agent&#x27;s tools; it is not an LLM.");
    expect(html).toContain('data-testid="run-offline-notice-credentials"');
    expect(html).toContain("Add a credential");
    expect(html).toContain('data-testid="run-offline-notice-dismiss"');
  });

  it("is dismissed once per agent, and an unreadable record shows it again", () => {
    const storage = createStorage();
    expect(isOfflineNoticeDismissed(storage, "a")).toBe(false);
    dismissOfflineNotice(storage, "a");
    dismissOfflineNotice(storage, "a");
    expect(isOfflineNoticeDismissed(storage, "a")).toBe(true);
    expect(isOfflineNoticeDismissed(storage, "b")).toBe(false);
    expect(JSON.parse(storage.items.get(OFFLINE_NOTICE_KEY) ?? "")).toEqual(["a"]);
    expect(isOfflineNoticeDismissed(createStorage({ [OFFLINE_NOTICE_KEY]: "{not json" }), "a")).toBe(false);
    expect(isOfflineNoticeDismissed(undefined, "a")).toBe(false);
  });

  it("does not fail when the browser refuses to store the dismissal", () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(() => dismissOfflineNotice(full, "a")).not.toThrow();
  });
});
