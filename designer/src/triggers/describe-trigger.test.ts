import { describe, expect, it } from "vitest";
import { getFireLabel, getHookUrl, getTriggersSummary } from "./describe-trigger.js";

describe("trigger words", () => {
  it("joins the page's origin and the hook's path", () => {
    expect(getHookUrl("http://localhost:8080/", "/hooks/trg_1")).toBe("http://localhost:8080/hooks/trg_1");
    expect(getHookUrl("https://w.example", "hooks/trg_1")).toBe("https://w.example/hooks/trg_1");
  });

  it("says what became of a fire", () => {
    expect(getFireLabel({ status: "started", error: null, runStatus: "finished" })).toBe(
      "started a run · finished",
    );
    expect(getFireLabel({ status: "skipped", error: { code: "skipped_overlap", message: "x" } })).toBe(
      "skipped: the previous fire's run was still going",
    );
    expect(
      getFireLabel({ status: "failed", error: { code: "channel_not_found", message: "No channel staging" } }),
    ).toBe("failed: No channel staging (channel_not_found)");
  });

  it("counts an agent's triggers and those on", () => {
    expect(getTriggersSummary([])).toBe("none");
    expect(getTriggersSummary([{ enabled: true }])).toBe("1 trigger · 1 on");
    expect(getTriggersSummary([{ enabled: true }, { enabled: false }])).toBe("2 triggers · 1 on");
  });
});
