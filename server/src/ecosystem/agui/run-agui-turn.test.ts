import { describe, expect, it } from "vitest";
import { getWaitingMessage } from "../../public/get-waiting-message.js";
import { getWaitingEvent, WAITING_EVENT } from "./run-agui-turn.js";

const pause = (reason: string, payload: Record<string, unknown>) => ({ reason, payload, resumeToken: "t" });

describe("getWaitingEvent", () => {
  it("tells a visitor what the public chat's page tells them, never the tool's arguments", () => {
    const cases = [
      [pause("approval_required", { tool: "refund", args: { card: "4242-SECRET" } }), "approve refund"],
      [pause("approval_required", { tool: "spawn_task", why: "spawn_requires_confirmation" }), "starting"],
      [pause("approval_required", { tool: "merge", why: "human_gated_merge" }), "background task"],
      [pause("await_input", { prompt: "Which card? 4242-SECRET" }), "to reply"],
      [pause("external_event", {}), "outside event"],
    ] as const;
    for (const [waiting, words] of cases) {
      const event = getWaitingEvent(waiting);
      expect(event).toEqual({
        type: "CUSTOM",
        name: WAITING_EVENT,
        value: { reason: waiting.reason, message: getWaitingMessage(waiting) },
      });
      expect(JSON.stringify(event)).toContain(words);
      expect(JSON.stringify(event)).not.toContain("SECRET");
    }
  });
});
