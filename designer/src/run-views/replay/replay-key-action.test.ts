import { describe, expect, it } from "vitest";
import { getReplayKeyAction } from "./replay-key-action.js";

describe("getReplayKeyAction", () => {
  it("maps space and the arrows", () => {
    expect(getReplayKeyAction({ key: " ", targetTag: "BODY" })).toBe("toggle");
    expect(getReplayKeyAction({ key: "ArrowLeft", targetTag: "DIV" })).toBe("back");
    expect(getReplayKeyAction({ key: "ArrowRight" })).toBe("forward");
    expect(getReplayKeyAction({ key: "End" })).toBe("end");
    expect(getReplayKeyAction({ key: "+" })).toBe("faster");
  });
  it("leaves typing, form controls and modified keys alone", () => {
    expect(getReplayKeyAction({ key: " ", targetTag: "INPUT" })).toBeNull();
    expect(getReplayKeyAction({ key: "ArrowLeft", targetTag: "textarea" })).toBeNull();
    expect(getReplayKeyAction({ key: " ", targetTag: "DIV", targetEditable: true })).toBeNull();
    expect(getReplayKeyAction({ key: "ArrowRight", ctrlKey: true })).toBeNull();
    expect(getReplayKeyAction({ key: " ", targetTag: "BUTTON" })).toBeNull();
    expect(getReplayKeyAction({ key: "ArrowRight", targetTag: "BUTTON" })).toBe("forward");
    expect(getReplayKeyAction({ key: "a" })).toBeNull();
  });
});
